import StratusModel
import StratusCloud

/// The answers that carry records — `records/lookup`, `records/query`, `records/modify`,
/// `records/changes` and `changes/zone` — written straight into bytes: the envelope by hand,
/// each record by ``RecordWriter``, only the small trees (errors, deletions) as `JSONValue`.
public struct RecordsAnswerWriter {
    public var records: RecordWriter
    /// An asset value's `downloadURL` (nil for none).
    public var assetURL: (Asset) -> String?

    public init(records: RecordWriter, assetURL: @escaping (Asset) -> String? = { _ in nil }) {
        self.records = records
        self.assetURL = assetURL
    }

    /// `{"records": [...]}`, and `continuationMarker` when a query has more.
    public func records(_ entries: [RecordEntry], continuationMarker: String? = nil) -> [UInt8] {
        var out = JSONBytes(capacity: 1024 * max(entries.count, 1))
        out.beginObject()
        out.key(JSONNames.records)
        write(entries, into: &out)
        if let continuationMarker {
            out.key(JSONNames.continuationMarker)
            out.string(continuationMarker)
        }
        out.endObject()
        return out.bytes
    }

    /// One zone's page alone (`records/changes`).
    public func changePage(_ page: ZoneChangePage) -> [UInt8] {
        var out = JSONBytes(capacity: 1024 * max(page.entries.count, 1))
        write(page, into: &out)
        return out.bytes
    }

    /// `{"zones": [...]}`, each a zone's page or the tree of its error (`changes/zone`).
    public func zones(_ entries: [ZoneChangesEntry]) -> [UInt8] {
        var out = JSONBytes(capacity: 1024 * max(entries.reduce(0) { total, entry in
            if case .page(let page) = entry { return total + page.entries.count }
            return total + 1
        }, 1))
        out.beginObject()
        out.key(JSONNames.zones)
        out.beginArray()
        for entry in entries {
            switch entry {
            case .page(let page): write(page, into: &out)
            case .failure(let json): out.value(json)
            }
        }
        out.endArray()
        out.endObject()
        return out.bytes
    }

    /// The page as ``ChangePageJSON`` lays it out: `zoneID`, `records`, `syncToken`, `moreComing`.
    private func write(_ page: ZoneChangePage, into out: inout JSONBytes) {
        out.beginObject()
        out.key(JSONNames.zoneID)
        records.writeZoneID(page.zoneID, into: &out)
        out.key(JSONNames.records)
        write(page.entries, into: &out)
        out.key(JSONNames.syncToken)
        out.string(page.syncToken)
        out.key(JSONNames.moreComing)
        out.bool(page.moreComing)
        out.endObject()
    }

    private func write(_ entries: [RecordEntry], into out: inout JSONBytes) {
        out.beginArray()
        for entry in entries {
            switch entry {
            case .record(let record, let encrypted, let extra): records.write(record, encrypted: encrypted, extra: extra, into: &out, assetURL: assetURL)
            case .json(let json): out.value(json)
            }
        }
        out.endArray()
    }
}

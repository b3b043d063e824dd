import Foundation
import StratusCKWS
import StratusCloud
import StratusEngine
import StratusRemote

/// `stratus export --remote`: the records of one type, zone by zone, page by page through the
/// remote's query (CloudKit Web Services has no schema call to list the types, nor an export),
/// written as the local export writes them, so `stratus save --import` reads them back the same.
///
/// With `embedAssets`, the first record that points at an asset carries its content, downloaded
/// from the remote's `downloadURL`, as a `data:` URL — as the local export embeds it.
struct RemoteRecordExporter {
    let database: RemoteDatabase
    let service: RemoteCloudService
    let recordType: String
    let embedAssets: Bool
    private var writtenAssets: Set<String> = []

    init(database: RemoteDatabase, service: RemoteCloudService, recordType: String, embedAssets: Bool) {
        self.database = database
        self.service = service
        self.recordType = recordType
        self.embedAssets = embedAssets
    }

    /// The zones an export without `--zone` goes through: the default zone first, then by name,
    /// as the local export orders them.
    static func zones(of database: RemoteDatabase) throws -> [ZoneID] {
        try database.allRecordZones().map(\.zoneID).sorted { left, right in
            if left.isDefault != right.isDefault { return left.isDefault }
            return (left.zoneName, left.ownerName) < (right.zoneName, right.ownerName)
        }
    }

    /// Writes every record of the type in `zones`, a page at a time; returns how many.
    mutating func export(zones: [ZoneID], write: (Data) throws -> Void, progress: (Int) -> Void) throws -> Int {
        var count = 0
        for zoneID in zones {
            var marker: String?
            repeat {
                let page = try database.pullRecords(ofType: recordType, inZoneWith: zoneID, continuing: marker)
                var out = Data()
                for record in page.records {
                    out.append(contentsOf: JSONWriter.bytes(try line(record, downloads: page.downloads)))
                    out.append(0x0A)
                }
                if !out.isEmpty { try write(out) }
                count += page.records.count
                progress(count)
                marker = page.next
            } while marker != nil
        }
        return count
    }

    /// The record in the export's shape, each asset seen for the first time with its content.
    private mutating func line(_ record: Record, downloads: [String: String]) throws -> JSONValue {
        let encoded = RecordJSON.encode(record)
        guard embedAssets, case .object(var members) = encoded,
              let index = members.firstIndex(where: { $0.0 == "fields" }), case .object(let fields) = members[index].1 else { return encoded }
        var embedded: [(String, JSONValue)] = []
        for (name, field) in fields {
            guard case .object(var parts) = field, let type = field["type"]?.stringValue, type.hasPrefix("ASSET"),
                  let valueIndex = parts.firstIndex(where: { $0.0 == "value" }) else {
                embedded.append((name, field))
                continue
            }
            switch parts[valueIndex].1 {
            case .array(let items): parts[valueIndex].1 = .array(try items.map { try withContent($0, downloads: downloads) })
            case let item: parts[valueIndex].1 = try withContent(item, downloads: downloads)
            }
            embedded.append((name, .object(parts)))
        }
        members[index].1 = .object(embedded)
        return .object(members)
    }

    /// An asset value with `downloadURL` as a `data:` URL the first time its checksum appears.
    private mutating func withContent(_ asset: JSONValue, downloads: [String: String]) throws -> JSONValue {
        guard case .object(let parts) = asset, let checksum = asset["fileChecksum"]?.stringValue,
              let url = downloads[checksum], writtenAssets.insert(checksum).inserted else { return asset }
        let data = try service.client.download(url)
        return .object(parts + [("downloadURL", .string("data:application/octet-stream;base64," + data.base64EncodedString()))])
    }
}

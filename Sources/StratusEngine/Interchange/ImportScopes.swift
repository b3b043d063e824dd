import Foundation
import StratusCloud

/// What an import's writer tells its reading thread about the zones and record types it has
/// met: their row ids and the type's fields, under a generation that changes whenever the
/// schema does. The reading thread then does per-record work the writer would otherwise do
/// (``ImportBatch/prepare(scopes:)``): at a million records the writer sets the pace and the
/// reader has room. Written by the writer, read by the reader, under a lock.
final class ImportScopes: @unchecked Sendable {
    struct IDs: Sendable {
        var zoneRowID: Int64
        var typeID: Int64
        /// ``FieldTokens/scopedToken(_:zoneRowID:typeID:)``'s prefix, as bytes.
        var prefix: [UInt8]
        /// The type's declared fields, as the writer had them.
        var fields: [String: SchemaCatalog.TypeEntry.Field]
        var generation: Int
    }

    private struct Key: Hashable {
        var zone: ZoneID
        var type: String
    }

    private let lock = NSLock()
    private var known: [Key: IDs] = [:]
    private var generation = 0

    func ids(zone: ZoneID, type: String) -> IDs? {
        lock.lock()
        defer { lock.unlock() }
        return known[Key(zone: zone, type: type)]
    }

    /// Says the records of `type` in `zone` are written under these row ids and fields, in the
    /// current generation.
    func record(zone: ZoneID, type: String, zoneRowID: Int64, typeID: Int64, fields: [String: SchemaCatalog.TypeEntry.Field]) {
        let prefix = Array(FieldTokens.scopedToken("", zoneRowID: zoneRowID, typeID: typeID).utf8)
        lock.lock()
        known[Key(zone: zone, type: type)] = IDs(zoneRowID: zoneRowID, typeID: typeID, prefix: prefix, fields: fields, generation: generation)
        lock.unlock()
    }

    /// Forgets everything told (a new transaction, a schema that grew) and returns the new
    /// generation: what was prepared under an older one is not trusted.
    func newGeneration() -> Int {
        lock.lock()
        defer { lock.unlock() }
        generation += 1
        known.removeAll()
        return generation
    }
}

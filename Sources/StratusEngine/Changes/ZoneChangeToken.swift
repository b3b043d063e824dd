import Foundation
import StratusCloud

/// A position in one zone's change history: after change `sequence` of incarnation
/// `incarnation` of the zone with row id `zoneRowID` in database `scope`.
struct ZoneChangeToken: Equatable {
    var scope: DatabaseScope
    var zoneRowID: Int64
    var incarnation: Int64
    var sequence: Int64
    /// For a page of a playback from no token that ends before the zone's compaction point:
    /// the point when the playback began. Such a token stays good while the point has not
    /// moved (no deletion the client still needs was dropped since it began).
    var basis: Int64? = nil

    func encoded(storeID: UUID) -> String {
        var writer = ByteWriter()
        writer.byte(UInt8(scope.rawValue))
        writer.varint(UInt64(zoneRowID))
        writer.varint(UInt64(incarnation))
        writer.varint(UInt64(sequence))
        if let basis { writer.varint(UInt64(basis)) }
        return OpaqueToken(kind: .zoneChanges, storeID: storeID, payload: writer.bytes).encoded()
    }

    static func decode(_ text: String, storeID: UUID) throws -> ZoneChangeToken {
        let token = try OpaqueToken.decode(text, expecting: .zoneChanges, storeID: storeID)
        var reader = ByteReader(bytes: token.payload)
        do {
            guard let scope = DatabaseScope(rawValue: Int(try reader.byte())) else { throw ByteReader.Failure.corrupt }
            var result = ZoneChangeToken(scope: scope, zoneRowID: try tokenInt64(reader.varint()),
                                         incarnation: try tokenInt64(reader.varint()), sequence: try tokenInt64(reader.varint()))
            if !reader.isAtEnd { result.basis = try tokenInt64(reader.varint()) }
            guard reader.isAtEnd else { throw ByteReader.Failure.corrupt }
            return result
        } catch {
            throw CloudKitError(.invalidArguments, "The zone change token is damaged (its contents do not parse).")
        }
    }
}

/// A token's number as Int64: a token whose checksum is right but whose contents were not
/// written by Stratus may hold a varint past Int64.max, which must be refused, not trap.
func tokenInt64(_ value: UInt64) throws -> Int64 {
    guard let result = Int64(exactly: value) else { throw ByteReader.Failure.corrupt }
    return result
}

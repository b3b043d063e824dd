import Foundation

/// A position in one zone's change history: after change `sequence` of incarnation
/// `incarnation` of the zone with row id `zoneRowID` in database `scope`.
struct ZoneChangeToken: Equatable {
    var scope: DatabaseScope
    var zoneRowID: Int64
    var incarnation: Int64
    var sequence: Int64

    func encoded(storeID: UUID) -> String {
        var writer = ByteWriter()
        writer.byte(UInt8(scope.rawValue))
        writer.varint(UInt64(zoneRowID))
        writer.varint(UInt64(incarnation))
        writer.varint(UInt64(sequence))
        return OpaqueToken(kind: .zoneChanges, storeID: storeID, payload: writer.bytes).encoded()
    }

    static func decode(_ text: String, storeID: UUID) throws -> ZoneChangeToken {
        let token = try OpaqueToken.decode(text, expecting: .zoneChanges, storeID: storeID)
        var reader = ByteReader(bytes: token.payload)
        do {
            guard let scope = DatabaseScope(rawValue: Int(try reader.byte())) else { throw ByteReader.Failure.corrupt }
            let result = ZoneChangeToken(scope: scope, zoneRowID: Int64(try reader.varint()),
                                         incarnation: Int64(try reader.varint()), sequence: Int64(try reader.varint()))
            guard reader.isAtEnd else { throw ByteReader.Failure.corrupt }
            return result
        } catch {
            throw CloudKitError(.invalidArguments, "The zone change token is damaged (its contents do not parse).")
        }
    }
}

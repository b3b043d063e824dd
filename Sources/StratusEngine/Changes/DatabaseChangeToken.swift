import Foundation
import StratusCloud

/// A position in a database's zone-change history.
struct DatabaseChangeToken: Equatable {
    var scope: DatabaseScope
    var sequence: Int64

    func encoded(storeID: UUID) -> String {
        var writer = ByteWriter()
        writer.byte(UInt8(scope.rawValue))
        writer.varint(UInt64(sequence))
        return OpaqueToken(kind: .databaseChanges, storeID: storeID, payload: writer.bytes).encoded()
    }

    static func decode(_ text: String, storeID: UUID) throws -> DatabaseChangeToken {
        let token = try OpaqueToken.decode(text, expecting: .databaseChanges, storeID: storeID)
        var reader = ByteReader(bytes: token.payload)
        do {
            guard let scope = DatabaseScope(rawValue: Int(try reader.byte())) else { throw ByteReader.Failure.corrupt }
            let result = DatabaseChangeToken(scope: scope, sequence: try tokenInt64(reader.varint()))
            guard reader.isAtEnd else { throw ByteReader.Failure.corrupt }
            return result
        } catch {
            throw CloudKitError(.invalidArguments, "The database change token is damaged (its contents do not parse).")
        }
    }
}

import Foundation
import StratusModel
import StratusCloud

extension RecordJSON {
    /// The record a line holds when it is one record object as exports write it (`recordName`,
    /// `recordType`, `recordChangeTag`, `zoneID`, `fields` of `{value, type}`, `created`,
    /// `modified`, `parent`), read member by member for a restore: what
    /// ``RecordDocument/entries(in:zoneID:owners:uploadAsset:restoring:)`` makes of it, with the
    /// zone's owner mapped to the acting user. Nil for anything else (another member, a field
    /// without its type, a value its type refuses, a name met twice, malformed JSON): the
    /// caller then reads the line through the tree, which says what is wrong and where.
    ///
    /// Reading through a tree built an array for every object of the line (the record, its
    /// zone, its fields, each field, its times) and looked each member up by name, then freed
    /// it all: half of the reading thread's time in an import. Each value is still decoded by
    /// ``decodeValue(_:as:path:uploadAsset:)``, so a value means the same on either path.
    package static func decodeRestored(utf8 line: UnsafeBufferPointer<UInt8>, zoneID: ZoneID) -> Record? {
        JSONParser.read(line) { (parser: inout JSONParser) throws(JSONParser.SyntaxError) -> Record? in
            var reader = RecordObjectReader(zoneID: zoneID, reading: .restore)
            guard case .saved(let record)? = try reader.read(&parser) else { return nil }
            return record
        }
    }
}

import Foundation
import StratusModel
import StratusCloud

/// One event of a zone's change playback, kept small (the list can be long).
struct ChangeEvent: Hashable, Sendable {
    enum Kind: String, Hashable, Sendable { case changed, deleted }
    var kind: Kind
    var recordType: String
    var recordName: String
    var fields: [String]
    var changeTag: String?
}

/// A zone changed, deleted or purged, as the database change feed lists it.
struct ZoneChangeEvent: Hashable, Sendable {
    var kind: String
    var zone: ZoneID
}

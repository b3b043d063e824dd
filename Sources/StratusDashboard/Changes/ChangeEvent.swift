import Foundation
import StratusEngine
import StratusModel
import StratusCloud

/// One event of a zone's change playback, kept small (the list can be long).
public struct ChangeEvent: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable { case changed, deleted }
    public var kind: Kind
    public var recordType: String
    public var recordName: String
    public var fields: [String]
    public var changeTag: String?
}

/// A zone changed, deleted or purged, as the database change feed lists it.
public struct ZoneChangeEvent: Hashable, Sendable {
    public var kind: String
    public var zone: ZoneID
}

import Foundation

/// Identifies a record: a name unique in its zone, and the zone.
public struct RecordID: Hashable, Sendable, CustomStringConvertible {
    public var recordName: String
    public var zoneID: ZoneID

    public init(recordName: String, zoneID: ZoneID = .default) {
        self.recordName = recordName
        self.zoneID = zoneID
    }

    /// A new ID with a random UUID name, as CloudKit makes when none is given.
    public init(zoneID: ZoneID = .default) {
        self.init(recordName: UUID().uuidString, zoneID: zoneID)
    }

    public var description: String { "\(recordName) in \(zoneID)" }

    /// Why a record name is not acceptable to CloudKit, or nil when it is (ASCII, 1-255 characters).
    public static func problem(withName name: String) -> String? {
        if name.isEmpty { return "a record name cannot be empty" }
        // On bytes: a byte from 0x20 to 0x7E is a printable ASCII character, and any other
        // (a control character, or part of a multi-byte one) is not.
        if !name.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            return "record name '\(name)' must be printable ASCII"
        }
        if name.utf8.count > 255 { return "record name is \(name.utf8.count) characters long; the limit is 255" }
        return nil
    }
}

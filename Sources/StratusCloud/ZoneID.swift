/// Identifies a record zone: its name and the user record name of its owner.
public struct ZoneID: Hashable, Sendable, CustomStringConvertible {
    /// The zone every database has and nobody can delete.
    public static let defaultZoneName = "_defaultZone"
    /// The owner name that stands for "the current user", as CloudKit's `CKCurrentUserDefaultName`.
    public static let defaultOwnerName = "__defaultOwner__"

    public var zoneName: String
    public var ownerName: String

    public init(zoneName: String, ownerName: String = ZoneID.defaultOwnerName) {
        self.zoneName = zoneName
        self.ownerName = ownerName
    }

    public static let `default` = ZoneID(zoneName: defaultZoneName)

    public var isDefault: Bool { zoneName == ZoneID.defaultZoneName }

    public var description: String {
        ownerName == ZoneID.defaultOwnerName ? zoneName : "\(zoneName) (owner \(ownerName))"
    }
}

extension ZoneID {
    /// What is wrong with a name for a new custom zone, as `modifyRecordZones` would say it;
    /// nil when the name is fine. Interfaces call it to check a name as it is typed.
    public static func nameProblem(_ name: String) -> String? {
        if name.isEmpty { return "A zone name cannot be empty." }
        if name.utf8.count > 255 { return "Zone name is \(name.utf8.count) bytes long; the limit is 255." }
        if name.hasPrefix("_") { return "Zone names starting with '_' are reserved for CloudKit's own zones." }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "Zone name '\(name.debugDescription)' contains control characters."
        }
        return nil
    }
}

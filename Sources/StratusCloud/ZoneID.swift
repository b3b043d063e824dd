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

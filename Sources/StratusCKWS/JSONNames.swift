import StratusModel

/// The member names and string values of the CKWS shape that records and their answers write,
/// each escaped and quoted once (``JSONBytes/Literal``).
enum JSONNames {
    static let action = JSONBytes.Literal("action")
    static let altitude = JSONBytes.Literal("altitude")
    static let continuationMarker = JSONBytes.Literal("continuationMarker")
    static let course = JSONBytes.Literal("course")
    static let created = JSONBytes.Literal("created")
    static let downloadURL = JSONBytes.Literal("downloadURL")
    static let fields = JSONBytes.Literal("fields")
    static let fileChecksum = JSONBytes.Literal("fileChecksum")
    static let horizontalAccuracy = JSONBytes.Literal("horizontalAccuracy")
    static let isEncrypted = JSONBytes.Literal("isEncrypted")
    static let latitude = JSONBytes.Literal("latitude")
    static let longitude = JSONBytes.Literal("longitude")
    static let modified = JSONBytes.Literal("modified")
    static let moreComing = JSONBytes.Literal("moreComing")
    static let ownerRecordName = JSONBytes.Literal("ownerRecordName")
    static let parent = JSONBytes.Literal("parent")
    static let recordChangeTag = JSONBytes.Literal("recordChangeTag")
    static let recordName = JSONBytes.Literal("recordName")
    static let recordType = JSONBytes.Literal("recordType")
    static let records = JSONBytes.Literal("records")
    static let size = JSONBytes.Literal("size")
    static let speed = JSONBytes.Literal("speed")
    static let syncToken = JSONBytes.Literal("syncToken")
    static let timestamp = JSONBytes.Literal("timestamp")
    static let type = JSONBytes.Literal("type")
    static let userRecordName = JSONBytes.Literal("userRecordName")
    static let value = JSONBytes.Literal("value")
    static let verticalAccuracy = JSONBytes.Literal("verticalAccuracy")
    static let zoneID = JSONBytes.Literal("zoneID")
    static let zoneName = JSONBytes.Literal("zoneName")
    static let zoneType = JSONBytes.Literal("zoneType")
    static let zones = JSONBytes.Literal("zones")

    static let defaultZone = JSONBytes.Literal("DEFAULT_ZONE")
    static let customZone = JSONBytes.Literal("REGULAR_CUSTOM_ZONE")

    /// Every field type's `type` tag (`STRING`, `INT64_LIST`, ...), each at its ``slot(of:)``.
    private static let tags: [JSONBytes.Literal] = {
        var tags = [JSONBytes.Literal](repeating: JSONBytes.Literal(""), count: 2 * FieldType.BaseType.allCases.count)
        for base in FieldType.BaseType.allCases {
            tags[slot(of: base)] = JSONBytes.Literal(FieldType(base).webServicesTag)
            tags[slot(of: base) + 1] = JSONBytes.Literal(FieldType.list(base).webServicesTag)
        }
        return tags
    }()

    /// Where a base type's tags are in `tags`, scalar then list (a switch: hashing the type
    /// cost more than writing the tag).
    private static func slot(of base: FieldType.BaseType) -> Int {
        switch base {
        case .string: 0
        case .int64: 2
        case .double: 4
        case .timestamp: 6
        case .bytes: 8
        case .asset: 10
        case .reference: 12
        case .location: 14
        }
    }

    static func tag(of type: FieldType) -> JSONBytes.Literal { tags[slot(of: type.base) + (type.isList ? 1 : 0)] }
}

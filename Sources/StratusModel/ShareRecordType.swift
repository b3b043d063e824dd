/// The record type CloudKit keeps shares in, `cloudkit.share`, with its system fields.
///
/// Its names break the identifier rules custom names follow (they hold a dot), and containers
/// that ever shared a record export it, so schemas and records must know it by name.
public enum ShareRecordType {
    /// The type's name as CloudKit writes it (lower-case `k`; `cloudKit.share` is accepted on input).
    public static let name = "cloudkit.share"
    /// The record name of a zone-wide share (`CKRecordNameZoneWideShare`).
    public static let zoneWideShareRecordName = "cloudkit.zoneshare"

    /// The fields CloudKit defines on a share (`CKShare.SystemFieldKey`), by name.
    public static let systemFields: [String: FieldType] = [
        "cloudkit.title": .string,
        "cloudkit.type": .string,
        "cloudkit.thumbnailImageData": .bytes,
    ]

    /// Whether `name` names the share type, in either spelling CloudKit's clients use.
    public static func isShareType(_ name: String) -> Bool {
        name == Self.name || name == "cloudKit.share"
    }
}

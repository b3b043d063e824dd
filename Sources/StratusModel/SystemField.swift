/// The system fields every record has, under their server names, with the predicate keys
/// CloudKit accepts for them (`creationDate` for `___createTime` ...).
public enum SystemField: String, CaseIterable, Hashable, Sendable {
    case createTime = "___createTime"
    case createdBy = "___createdBy"
    case etag = "___etag"
    case modTime = "___modTime"
    case modifiedBy = "___modifiedBy"
    case recordID = "___recordID"
    case parent = "___parent"
    case share = "___share"

    /// The field's type in the schema language.
    public var type: FieldType {
        switch self {
        case .createTime, .modTime: return .timestamp
        case .etag: return .string
        case .createdBy, .modifiedBy, .recordID, .parent, .share: return .reference
        }
    }

    /// The key a predicate or sort descriptor uses in CloudKit's native API.
    public var predicateKey: String {
        switch self {
        case .createTime: return "creationDate"
        case .modTime: return "modificationDate"
        case .createdBy: return "creatorUserRecordID"
        case .modifiedBy: return "lastModifiedUserRecordID"
        case .recordID: return "recordID"
        case .etag: return "recordChangeTag"
        case .parent: return "parent"
        case .share: return "share"
        }
    }

    /// Whether this system field appears in `.ckdb` exports (the six implicit fields).
    public var isImplicitSchemaField: Bool { self != .parent && self != .share }

    /// Recognises a native key (`creationDate`), a server name (`___createTime`) or a Web
    /// Services system field name (`createdTimestamp`, `recordName`).
    public init?(key: String) {
        if let field = SystemField(rawValue: key) {
            self = field
            return
        }
        switch key {
        case "creationDate", "createdTimestamp": self = .createTime
        case "modificationDate", "modifiedTimestamp": self = .modTime
        case "creatorUserRecordID", "createdUserRecordName": self = .createdBy
        case "lastModifiedUserRecordID", "modifiedUserRecordName": self = .modifiedBy
        case "recordID", "recordName", "___recordId": self = .recordID
        case "recordChangeTag": self = .etag
        case "parent": self = .parent
        case "share": self = .share
        default: return nil
        }
    }
}

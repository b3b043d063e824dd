import Foundation

/// The tables of a store as a copy carries them, in the order they are written (the schema
/// before the records it indexes), each with its columns in the backend-neutral form: every
/// column that holds data, and none a backend derives (index rows, full-text tokens, a
/// record's size), which the destination rebuilds as it writes the records.
///
/// Column names follow the PostgreSQL tables; the SQLite backend maps its few different ones.
/// Flags are integers (0 or 1), a user's roles one comma-separated text, the store's identity
/// its UUID's text.
package enum CopiedTable: String, CaseIterable, Sendable {
    case storeInfo = "store_info"
    case databaseState = "database_state"
    case zone
    case recordType = "record_type"
    case schemaField = "schema_field"
    case schemaGrant = "schema_grant"
    case schemaRole = "schema_role"
    case user
    case asset
    case record
    case tombstone
    case share
    case shareParticipant = "share_participant"
    case subscription
    case subscriptionState = "subscription_state"
    case notification
    case fault
    case faultEvent = "fault_event"
    case serverCredential = "server_credential"
    case serverKey = "server_key"
    case requestLog = "request_log"
    case requestBody = "request_body"
    case pushToken = "push_token"

    /// What a column holds.
    package enum Kind: Sendable {
        case integer, real, text, bytes
    }

    /// A column's name and kind (any column may be NULL where its table allows).
    package struct Column: Sendable {
        package let name: String
        package let kind: Kind
    }

    /// The columns, in the order a row's cells come.
    package var columns: [Column] {
        Self.layouts[self]!.map { Column(name: $0.0, kind: $0.1) }
    }

    /// The columns that order the rows (a key, so the order is total).
    package var key: [String] {
        switch self {
        case .storeInfo, .subscriptionState: return []
        case .databaseState: return ["scope"]
        case .schemaGrant: return ["type_id", "position"]
        case .schemaRole: return ["name"]
        case .user: return ["record_name"]
        case .asset: return ["checksum"]
        case .tombstone: return ["zone_id", "name"]
        case .shareParticipant: return ["share_id", "user_name"]
        case .notification: return ["seq"]
        case .serverCredential: return ["digest"]
        case .serverKey: return ["key_id"]
        case .pushToken: return ["token"]
        default: return ["id"]
        }
    }

    /// How copy progress names the table.
    package var shownName: String { rawValue.replacingOccurrences(of: "_", with: " ") }

    private static let layouts: [CopiedTable: [(String, Kind)]] = [
        .storeInfo: [("uuid", .text), ("environment", .text), ("owner", .text), ("created_at", .integer), ("schema_version", .integer)],
        .databaseState: [("scope", .integer), ("change_seq", .integer)],
        .zone: [("id", .integer), ("scope", .integer), ("owner", .text), ("name", .text), ("incarnation", .integer), ("change_seq", .integer),
                ("db_seq", .integer), ("state", .integer), ("compacted_seq", .integer)],
        .recordType: [("id", .integer), ("name", .text), ("system_indexes", .text), ("retired", .integer)],
        .schemaField: [("id", .integer), ("type_id", .integer), ("name", .text), ("field_type", .text), ("indexes", .integer), ("declared_type", .text)],
        .schemaGrant: [("type_id", .integer), ("position", .integer), ("permissions", .text), ("role", .text)],
        .schemaRole: [("name", .text)],
        .user: [("record_name", .text), ("alias", .text), ("roles", .text), ("created_at", .integer)],
        .asset: [("checksum", .text), ("size", .integer), ("data", .bytes)],
        .record: [("id", .integer), ("zone_id", .integer), ("name", .text), ("type_id", .integer), ("fields", .bytes), ("change_tag", .text),
                  ("seq", .integer), ("created_at", .integer), ("created_by", .text), ("modified_at", .integer), ("modified_by", .text),
                  ("parent", .text), ("changed_keys", .text)],
        .tombstone: [("zone_id", .integer), ("name", .text), ("type_id", .integer), ("seq", .integer)],
        .share: [("id", .integer), ("zone_id", .integer), ("record_name", .text), ("root_name", .text), ("short_guid", .text),
                 ("public_permission", .integer), ("live", .integer)],
        .shareParticipant: [("share_id", .integer), ("user_name", .text), ("type", .integer), ("permission", .integer), ("status", .integer),
                            ("db_seq", .integer)],
        .subscription: [("id", .integer), ("scope", .integer), ("owner", .text), ("subscription_id", .text), ("kind", .integer),
                        ("record_type", .text), ("zone_name", .text), ("zone_owner", .text), ("predicate", .text), ("arguments", .bytes),
                        ("options", .integer), ("info", .text), ("created_at", .integer)],
        .subscriptionState: [("version", .integer), ("count", .integer)],
        .notification: [("seq", .integer), ("id", .text), ("scope", .integer), ("owner", .text), ("subscription_id", .text), ("kind", .integer),
                         ("reason", .integer), ("zone_name", .text), ("zone_owner", .text), ("record_name", .text), ("record_type", .text),
                         ("fields", .bytes), ("info", .text), ("created_at", .integer), ("origin_device", .text), ("read", .integer)],
        .fault: [("id", .integer), ("kind", .text), ("scope", .integer), ("zone", .text), ("operation", .text), ("records", .text), ("token", .text),
                 ("trigger", .text), ("trigger_n", .integer), ("probability", .real), ("seed", .integer), ("retry_after", .real),
                 ("item_limit", .integer), ("other_fields", .text), ("clients", .text), ("seen", .integer), ("fired", .integer),
                 ("spent", .integer), ("last_fired_at", .integer), ("created_at", .integer)],
        .faultEvent: [("id", .integer), ("fault_id", .integer), ("time", .integer), ("kind", .text), ("operation", .text), ("database", .text),
                      ("zone", .text), ("message", .text)],
        .serverCredential: [("digest", .text), ("kind", .text), ("container", .text), ("user_name", .text), ("created_at", .integer)],
        .serverKey: [("key_id", .text), ("container", .text), ("public_key", .text), ("user_name", .text), ("created_at", .integer)],
        .requestLog: [("id", .integer), ("time", .integer), ("user_name", .text), ("container", .text), ("database", .text), ("endpoint", .text),
                      ("status", .integer), ("duration_us", .integer), ("error", .text), ("detail", .text)],
        .requestBody: [("id", .integer), ("request", .text), ("response", .text)],
        .pushToken: [("token", .text), ("container", .text), ("user_name", .text), ("apns_environment", .text), ("registered", .integer),
                     ("delivered_seq", .integer), ("start_seq", .integer), ("created_at", .integer)],
    ]
}

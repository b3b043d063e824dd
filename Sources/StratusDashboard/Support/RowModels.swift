import Foundation
import StratusEngine
import StratusModel
import StratusCloud

/// One line of the Schema tab: a record type heading or one of its fields.
struct SchemaLine: Hashable, Sendable {
    enum Kind: Hashable, Sendable {
        case recordType, field, grant, rolesHeading, role
        /// A system field (`field` holds its predicate key, `recordName` style names aside):
        /// every type has the six implicit ones, whose indexes the tab edits like a field's.
        case systemField
        /// The schema diff's heading, and one change of it (`recordType` holds its text, `indexes`
        /// CloudKit's refusal to deploy it, if any).
        case diffHeading, diffChange
    }
    var recordType: String
    /// nil for the type's heading line.
    var field: String?
    var type: String
    var indexes: String
    var kind: Kind

    init(recordType: String, field: String?, type: String, indexes: String, kind: Kind? = nil) {
        self.recordType = recordType
        self.field = field
        self.type = type
        self.indexes = indexes
        self.kind = kind ?? (field == nil ? .recordType : .field)
    }
}

enum SchemaLines {
    /// The Schema tab's lines: types with fields and grants, then the roles.
    static func lines(_ state: DashboardState) -> [SchemaLine] {
        if let diff = state.schemaTab.diff { return lines(diff) }
        return lines(state.recordTypes, grants: state.schemaTab.grants, roles: state.schemaTab.roles)
    }

    /// The lines of a schema diff: a heading saying what is compared and whether CloudKit would
    /// deploy it, then each change.
    static func lines(_ diff: SchemaDiffSnapshot) -> [SchemaLine] {
        let refused = diff.changes.filter { $0.deployRefusal != nil }.count
        let summary = diff.changes.isEmpty ? "the same schema"
            : "\(diff.changes.count) change\(diff.changes.count == 1 ? "" : "s"); "
                + (refused == 0 ? "CloudKit would deploy all of them to production" : "\(refused) refused in production")
        var lines = [SchemaLine(recordType: "From \((diff.path as NSString).lastPathComponent) to this store: \(summary)", field: nil, type: "",
                                indexes: "", kind: .diffHeading)]
        lines += diff.changes.map { change in
            SchemaLine(recordType: change.description, field: nil, type: "", indexes: change.deployRefusal.map { "✗ refused in production: \($0)" } ?? "",
                       kind: .diffChange)
        }
        return lines
    }

    static func lines(_ types: [RecordTypeSchema], grants: [String: [GrantDeclaration]] = [:], roles: [String] = []) -> [SchemaLine] {
        var lines: [SchemaLine] = []
        for schema in types {
            lines.append(SchemaLine(recordType: schema.name, field: nil, type: "\(schema.fields.count) fields", indexes: ""))
            for field in schema.sortedFields {
                lines.append(SchemaLine(recordType: schema.name, field: field.name, type: field.type.description,
                                        indexes: field.indexes.description))
            }
            for system in SystemField.allCases {
                let indexes = schema.systemIndexes[system] ?? []
                // The six implicit fields are always there (CloudKit's console lists them too:
                // `recordName` QUERYABLE is what makes a type listable); `parent` and `share`
                // only when something indexed them.
                guard system.isImplicitSchemaField || !indexes.isEmpty else { continue }
                lines.append(SchemaLine(recordType: schema.name, field: system.predicateKey, type: system.type.description + " (system)",
                                        indexes: indexes.description, kind: .systemField))
            }
            for grant in grants[schema.name] ?? [] {
                lines.append(SchemaLine(recordType: schema.name, field: "GRANT", type: grant.permissions.map(\.rawValue).joined(separator: ", "),
                                        indexes: "TO \(grant.role)", kind: .grant))
            }
        }
        if !roles.isEmpty {
            lines.append(SchemaLine(recordType: "Roles", field: nil, type: roles.count == 1 ? "1 role" : "\(roles.count) roles", indexes: "",
                                    kind: .rolesHeading))
            for role in roles {
                lines.append(SchemaLine(recordType: "Roles", field: role, type: "CREATE ROLE", indexes: "", kind: .role))
            }
        }
        return lines
    }
}

/// One line of the inspector: a system field or a field, its type and value.
struct InspectorRow: Hashable, Sendable {
    var name: String
    var type: String
    var value: String
    var isSystem: Bool
    /// The record name a reference points at (Enter opens it).
    var reference: String?
}

enum InspectorRows {
    /// The inspector's rows; through the Core Data lens (`lens`), a mirrored record's object view
    /// with the relationships `graph` read from its zone.
    static func rows(_ record: Record, schema: RecordTypeSchema?, lens: Bool = false, graph: CoreDataGraph? = nil) -> [InspectorRow] {
        if lens, let object = CoreDataRows.rows(record, graph: graph) { return object }
        func date(_ value: Foundation.Date?) -> String { value.map(ValueText.timestamp) ?? "" }
        var rows: [InspectorRow] = [
            InspectorRow(name: "recordName", type: "STRING", value: record.recordName, isSystem: true),
            InspectorRow(name: "recordType", type: "STRING", value: record.recordType, isSystem: true),
            InspectorRow(name: "zone", type: "ZONE", value: record.recordID.zoneID.description, isSystem: true),
            InspectorRow(name: "recordChangeTag", type: "STRING", value: record.recordChangeTag ?? "(not saved)", isSystem: true),
            InspectorRow(name: "creationDate", type: "TIMESTAMP", value: date(record.creationDate), isSystem: true),
            InspectorRow(name: "creatorUserRecordID", type: "REFERENCE", value: record.creatorUserRecordName ?? "", isSystem: true),
            InspectorRow(name: "modificationDate", type: "TIMESTAMP", value: date(record.modificationDate), isSystem: true),
            InspectorRow(name: "lastModifiedUserRecordID", type: "REFERENCE", value: record.lastModifiedUserRecordName ?? "", isSystem: true),
            InspectorRow(name: "parent", type: "REFERENCE", value: record.parent.map { "→ " + $0.recordName } ?? "(none)", isSystem: true,
                         reference: record.parent?.recordName),
        ]
        var names = Set(record.fields.keys)
        if let schema { names.formUnion(schema.fields.keys) }
        for name in names.sorted() {
            let value = record[name]
            let type = value?.type.description ?? schema?.fields[name]?.type.description ?? "?"
            var reference: String?
            if case .reference(let target)? = value { reference = target.recordName }
            rows.append(InspectorRow(name: name, type: type, value: value.map { ValueText.display($0) } ?? "—", isSystem: false,
                                     reference: reference))
        }
        return rows
    }
}

/// The Query tab's columns: the record name, then the schema's fields (or the desired keys).
enum QueryColumns {
    static func columns(schema: RecordTypeSchema?, desiredKeys: [String]?) -> [String] {
        // Bytes and assets say little in a table: they go last.
        let fields = (schema?.sortedFields ?? []).sorted { left, right in
            let leftOpaque = left.type.base == .bytes || left.type.base == .asset
            let rightOpaque = right.type.base == .bytes || right.type.base == .asset
            return leftOpaque == rightOpaque ? left.name < right.name : !leftOpaque
        }.map(\.name)
        let shown = desiredKeys.map { keys in fields.filter { keys.contains($0) } } ?? fields
        return ["recordName"] + shown
    }

    static func cell(_ record: Record, column: String) -> String {
        column == "recordName" ? record.recordName : ValueText.display(record[column])
    }
}

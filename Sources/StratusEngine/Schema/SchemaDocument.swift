import StratusModel
import StratusCloud

/// A schema in the CloudKit Schema Language (`.ckdb`), as `cktool export-schema` writes it and
/// `cktool import-schema` reads it: roles, and record types with their fields and grants.
///
/// Parse one with ``parse(_:)``, print one with ``text``; a store imports and exports them
/// (`Store.importSchema(_:environment:force:)`, `Store.exportSchema()`).
public struct SchemaDocument: Hashable, Sendable {
    /// Roles made with `CREATE ROLE`, in the order declared.
    public var roles: [String]
    /// Record types in the order declared.
    public var recordTypes: [RecordTypeDeclaration]

    public init(roles: [String] = [], recordTypes: [RecordTypeDeclaration] = []) {
        self.roles = roles
        self.recordTypes = recordTypes
    }

    /// The roles every container has without declaring them: creator, world, authenticated.
    public static let implicitRoles: Set<String> = ["_creator", "_world", "_icloud"]

    /// The record type named `name`, if declared.
    public func recordType(named name: String) -> RecordTypeDeclaration? {
        recordTypes.first { $0.name == name }
    }

    /// Parses `.ckdb` text: syntax, then the rules (names, system fields, indexes, roles).
    ///
    /// - Throws: ``SchemaLanguageError`` naming the line and column, and what was expected.
    public static func parse(_ text: String) throws(SchemaLanguageError) -> SchemaDocument {
        var parser = SchemaParser(text: text)
        let (document, positions) = try parser.parseSchema()
        try SchemaChecker(document: document, positions: positions).check()
        return document
    }

    /// Checks the rules a parsed document already passed, for a document built in code.
    public func validate() throws(SchemaLanguageError) {
        try SchemaChecker(document: self, positions: nil).check()
    }

    /// The document as cktool exports it (see ``SchemaWriter``).
    public var text: String { SchemaWriter.write(self) }
}

/// One `RECORD TYPE` statement.
public struct RecordTypeDeclaration: Hashable, Sendable {
    public var name: String
    /// Fields in the order declared; system fields (`"___createTime"` ...) among them carry
    /// only their options.
    public var fields: [FieldDeclaration]
    /// `GRANT` entries in the order declared.
    public var grants: [GrantDeclaration]

    public init(name: String, fields: [FieldDeclaration] = [], grants: [GrantDeclaration] = []) {
        self.name = name
        self.fields = fields
        self.grants = grants
    }

    /// The custom (non-system) fields.
    public var customFields: [FieldDeclaration] { fields.filter { !$0.isSystem } }

    /// The options declared on system fields; an implicit field not listed has none.
    public var systemIndexes: [SystemField: FieldIndexes] {
        var result: [SystemField: FieldIndexes] = [:]
        for field in fields {
            if let system = SystemField(rawValue: field.name), !field.indexes.isEmpty { result[system, default: []].formUnion(field.indexes) }
        }
        return result
    }
}

/// A field of a record type: name, declared type and options.
public struct FieldDeclaration: Hashable, Sendable {
    public var name: String
    public var type: DeclaredFieldType
    public var indexes: FieldIndexes

    public init(name: String, type: DeclaredFieldType, indexes: FieldIndexes = []) {
        self.name = name
        self.type = type
        self.indexes = indexes
    }

    /// Whether this is one of the implicit system fields (`"___recordID"` ...).
    public var isSystem: Bool { name.hasPrefix("_") }
}

/// A `GRANT READ, CREATE TO role` entry.
public struct GrantDeclaration: Hashable, Sendable {
    public enum Permission: String, Hashable, Sendable, CaseIterable {
        case read = "READ"
        case create = "CREATE"
        case write = "WRITE"
    }

    /// Permissions in the order written.
    public var permissions: [Permission]
    public var role: String

    public init(_ permissions: [Permission], to role: String) {
        self.permissions = permissions
        self.role = role
    }
}

/// A field type as the schema language spells it, which says more than the stored
/// `FieldType`: `ENCRYPTED STRING`, `NUMBER PREFERRED AS INT64`, `LIST<ENCRYPTED BYTES>`.
public struct DeclaredFieldType: Hashable, Sendable, CustomStringConvertible {
    /// The primitive type words.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case asset = "ASSET"
        case bytes = "BYTES"
        case double = "DOUBLE"
        case int64 = "INT64"
        case location = "LOCATION"
        case reference = "REFERENCE"
        case string = "STRING"
        case timestamp = "TIMESTAMP"
        case number = "NUMBER"

        /// The kinds `ENCRYPTED` may precede.
        public var canBeEncrypted: Bool {
            switch self {
            case .bytes, .string, .double, .int64, .location, .timestamp: return true
            default: return false
            }
        }
    }

    public var kind: Kind
    public var isEncrypted: Bool
    /// For `NUMBER PREFERRED AS INT64|DOUBLE`: the preferred type.
    public var preferred: FieldType.BaseType?
    public var isList: Bool

    public init(_ kind: Kind, encrypted: Bool = false, preferred: FieldType.BaseType? = nil, isList: Bool = false) {
        self.kind = kind
        self.isEncrypted = encrypted
        self.preferred = preferred
        self.isList = isList
    }

    /// The plain spelling of a stored type (`LIST<STRING>`).
    public init(_ type: FieldType) {
        let kind = Kind(rawValue: type.base.rawValue) ?? .string
        self.init(kind, isList: type.isList)
    }

    /// Reads a type spelling (`ENCRYPTED STRING`, `LIST<NUMBER PREFERRED AS DOUBLE>`).
    public init?(spelling: String) {
        var parser = SchemaParser(text: spelling)
        guard let type = try? parser.parseStandaloneType() else { return nil }
        self = type
    }

    /// The type the store keeps values in. A `NUMBER` is stored as its preferred type, and as
    /// DOUBLE when it has none (a double holds every number CloudKit sent as NUMBER).
    public var storageType: FieldType {
        let base: FieldType.BaseType
        switch kind {
        case .asset: base = .asset
        case .bytes: base = .bytes
        case .double: base = .double
        case .int64: base = .int64
        case .location: base = .location
        case .reference: base = .reference
        case .string: base = .string
        case .timestamp: base = .timestamp
        case .number: base = preferred ?? .double
        }
        return FieldType(base, isList: isList)
    }

    /// Whether the spelling says more than the storage type (so the store must remember it).
    public var isPlain: Bool { !isEncrypted && kind != .number }

    /// The schema-language spelling.
    public var description: String {
        var primitive = kind.rawValue
        if isEncrypted { primitive = "ENCRYPTED " + primitive }
        if kind == .number, let preferred { primitive += " PREFERRED AS \(preferred.rawValue)" }
        return isList ? "LIST<\(primitive)>" : primitive
    }
}

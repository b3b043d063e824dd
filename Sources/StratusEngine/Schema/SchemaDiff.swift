import StratusModel
import StratusCloud

/// What changes between two schemas, and which of those changes CloudKit refuses to deploy to
/// production (where a schema may only grow: no type, field or role is removed, no field changes
/// type).
///
/// Developers compare the development schema with production before they press "Deploy Schema
/// Changes": the Console shows that diff and fails the deploy on the first change it cannot
/// make. This says all of them at once, before anything is tried.
public struct SchemaDiff: Hashable, Sendable {
    /// One difference, as a line of the diff.
    public struct Change: Hashable, Sendable, CustomStringConvertible {
        public enum Kind: String, Hashable, Sendable {
            case roleAdded, roleRemoved
            case typeAdded, typeRemoved
            case fieldAdded, fieldRemoved, fieldRetyped, fieldIndexesChanged
            case grantChanged
        }

        public var kind: Kind
        /// The record type it concerns; nil for roles.
        public var recordType: String? = nil
        /// The field, role or granted role it concerns.
        public var name: String
        /// The schema-language text before and after (a type, options or permissions); nil when
        /// the element did not exist on that side.
        public var before: String? = nil
        public var after: String? = nil
        /// Why CloudKit would refuse to deploy this change to production; nil when it deploys.
        public var deployRefusal: String? = nil

        /// The change as one line: `+ field Trip.title STRING QUERYABLE`.
        public var description: String {
            let qualified = recordType.map { "\($0).\(name)" } ?? name
            switch kind {
            case .roleAdded: return "+ role \(name)"
            case .roleRemoved: return "- role \(name)"
            case .typeAdded: return "+ type \(name)"
            case .typeRemoved: return "- type \(name)"
            case .fieldAdded: return "+ field \(qualified) \(after ?? "")"
            case .fieldRemoved: return "- field \(qualified) \(before ?? "")"
            case .fieldRetyped: return "~ field \(qualified): \(before ?? "") → \(after ?? "")"
            case .fieldIndexesChanged:
                return "~ indexes \(qualified): \(Change.orNone(before)) → \(Change.orNone(after))"
            case .grantChanged:
                return "~ grant \(recordType ?? "") to \(SchemaWriter.name(name)): \(Change.orNone(before)) → \(Change.orNone(after))"
            }
        }

        private static func orNone(_ text: String?) -> String {
            guard let text, !text.isEmpty else { return "(none)" }
            return text
        }
    }

    /// Every difference: roles first, then record types by name, each type's fields by name,
    /// then its grants by role.
    public var changes: [Change]

    /// Whether the two schemas declare the same thing.
    public var isEmpty: Bool { changes.isEmpty }

    /// The changes CloudKit would refuse to deploy to production.
    public var refusedInProduction: [Change] { changes.filter { $0.deployRefusal != nil } }

    /// Compares `old` (say, production) with `new` (say, development). A side that does not
    /// declare `Users` is read as declaring CloudKit's standard one, since every container has
    /// it and exports may leave it out.
    public init(from old: SchemaDocument, to new: SchemaDocument) {
        var changes: [Change] = []
        let oldRoles = Set(old.roles), newRoles = Set(new.roles)
        for role in new.roles where !oldRoles.contains(role) {
            changes.append(Change(kind: .roleAdded, name: role))
        }
        for role in old.roles where !newRoles.contains(role) {
            changes.append(Change(kind: .roleRemoved, name: role,
                                  deployRefusal: "a role cannot be deleted once it is in production"))
        }
        let oldTypes = SchemaDiff.typesByName(old), newTypes = SchemaDiff.typesByName(new)
        for name in Set(oldTypes.keys).union(newTypes.keys).sorted() {
            switch (oldTypes[name], newTypes[name]) {
            case (nil, let added?):
                changes.append(Change(kind: .typeAdded, name: name))
                changes += SchemaDiff.fieldChanges(nil, added)
                changes += SchemaDiff.grantChanges(nil, added)
            case (_?, nil):
                changes.append(Change(kind: .typeRemoved, name: name,
                                      deployRefusal: "a record type cannot be deleted from the production schema"))
            case (let before?, let after?):
                changes += SchemaDiff.fieldChanges(before, after)
                changes += SchemaDiff.grantChanges(before, after)
            case (nil, nil):
                break
            }
        }
        self.changes = changes
    }

    // MARK: - Fields

    private static func fieldChanges(_ old: RecordTypeDeclaration?, _ new: RecordTypeDeclaration) -> [Change] {
        let oldFields = fieldsByName(old), newFields = fieldsByName(new)
        var changes: [Change] = []
        for name in Set(oldFields.keys).union(newFields.keys).sorted(by: systemFieldsFirst) {
            let before = oldFields[name], after = newFields[name]
            if let before, let after {
                if before.type != after.type {
                    changes.append(Change(kind: .fieldRetyped, recordType: new.name, name: name,
                                          before: before.type.description, after: after.type.description,
                                          deployRefusal: retypeRefusal(before.type, after.type)))
                }
                if before.indexes != after.indexes {
                    changes.append(Change(kind: .fieldIndexesChanged, recordType: new.name, name: name,
                                          before: before.indexes.description, after: after.indexes.description))
                }
            } else if let after {
                if after.isSystem {
                    // An implicit field is always there; listing it only adds options.
                    if !after.indexes.isEmpty {
                        changes.append(Change(kind: .fieldIndexesChanged, recordType: new.name, name: name,
                                              before: "", after: after.indexes.description))
                    }
                } else {
                    changes.append(Change(kind: .fieldAdded, recordType: new.name, name: name,
                                          after: declaration(after)))
                }
            } else if let before {
                if before.isSystem {
                    if !before.indexes.isEmpty {
                        changes.append(Change(kind: .fieldIndexesChanged, recordType: new.name, name: name,
                                              before: before.indexes.description, after: ""))
                    }
                } else {
                    changes.append(Change(kind: .fieldRemoved, recordType: new.name, name: name, before: declaration(before),
                                          deployRefusal: "a field cannot be deleted from a record type in production"))
                }
            }
        }
        return changes
    }

    /// CloudKit lets a NUMBER field that was added in a sandbox be given its preferred type
    /// once; every other change of type is refused in production.
    private static func retypeRefusal(_ old: DeclaredFieldType, _ new: DeclaredFieldType) -> String? {
        if old.kind == .number, old.preferred == nil, new.kind == .number, new.preferred != nil,
           old.isList == new.isList, old.isEncrypted == new.isEncrypted {
            return nil
        }
        return "a field's type cannot change in production"
    }

    private static func declaration(_ field: FieldDeclaration) -> String {
        field.indexes.isEmpty ? field.type.description : "\(field.type) \(field.indexes)"
    }

    private static func systemFieldsFirst(_ a: String, _ b: String) -> Bool {
        let aSystem = a.hasPrefix("_"), bSystem = b.hasPrefix("_")
        return aSystem != bSystem ? aSystem : a < b
    }

    private static func fieldsByName(_ type: RecordTypeDeclaration?) -> [String: FieldDeclaration] {
        var fields: [String: FieldDeclaration] = [:]
        for field in type?.fields ?? [] { fields[field.name] = field }
        return fields
    }

    // MARK: - Grants

    private static func grantChanges(_ old: RecordTypeDeclaration?, _ new: RecordTypeDeclaration) -> [Change] {
        let oldGrants = permissionsByRole(old), newGrants = permissionsByRole(new)
        var changes: [Change] = []
        for role in Set(oldGrants.keys).union(newGrants.keys).sorted() {
            let before = oldGrants[role] ?? [], after = newGrants[role] ?? []
            guard before != after else { continue }
            changes.append(Change(kind: .grantChanged, recordType: new.name, name: role,
                                  before: spell(before), after: spell(after)))
        }
        return changes
    }

    private static func permissionsByRole(_ type: RecordTypeDeclaration?) -> [String: Set<GrantDeclaration.Permission>] {
        var grants: [String: Set<GrantDeclaration.Permission>] = [:]
        for grant in type?.grants ?? [] { grants[grant.role, default: []].formUnion(grant.permissions) }
        return grants
    }

    /// Permissions in CloudKit's export order.
    private static func spell(_ permissions: Set<GrantDeclaration.Permission>) -> String {
        GrantDeclaration.Permission.allCases.filter(permissions.contains).map(\.rawValue).joined(separator: ", ")
    }

    // MARK: - Types

    private static func typesByName(_ document: SchemaDocument) -> [String: RecordTypeDeclaration] {
        var types: [String: RecordTypeDeclaration] = [:]
        for type in document.recordTypes { types[type.name] = type }
        if types["Users"] == nil { types["Users"] = standardUsersType }
        return types
    }

    /// The `Users` type every container has, as cktool exports it.
    static let standardUsersType = RecordTypeDeclaration(
        name: "Users",
        fields: [FieldDeclaration(name: "roles", type: DeclaredFieldType(.int64, isList: true))],
        grants: [GrantDeclaration([.write], to: "_creator"), GrantDeclaration([.read], to: "_world")]
    )
}

import Foundation
import StratusModel
import StratusCloud

/// Prints a schema the way `cktool export-schema` does:
///
/// ```
/// DEFINE SCHEMA
///
///     CREATE ROLE DeptManager;
///
///     RECORD TYPE Coins (
///         "___createTime" TIMESTAMP,
///         ...
///         "___recordID"   REFERENCE QUERYABLE,
///         currencyCode    STRING QUERYABLE SORTABLE,
///         GRANT WRITE TO "_creator"
///     );
/// ```
///
/// Roles and record types sorted by name; in each type the six system fields first, then the
/// custom fields by name (the name column padded so the types line up), then the grants in
/// their order. Options print as `QUERYABLE SEARCHABLE SORTABLE`. Names are quoted only when
/// they must be (system names, reserved words, anything not a plain identifier).
public enum SchemaWriter {
    /// The implicit system fields in the order exports list them.
    static let systemFields: [SystemField] = [.createTime, .createdBy, .etag, .modTime, .modifiedBy, .recordID]

    public static func write(_ document: SchemaDocument) -> String {
        var output = "DEFINE SCHEMA\n"
        let roles = document.roles.sorted()
        if !roles.isEmpty {
            output += "\n"
            for role in roles { output += "    CREATE ROLE \(name(role));\n" }
        }
        for type in document.recordTypes.sorted(by: { $0.name < $1.name }) {
            output += "\n"
            write(type, into: &output)
        }
        return output
    }

    private static func write(_ type: RecordTypeDeclaration, into output: inout String) {
        let declared = Dictionary(type.fields.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var fields: [FieldDeclaration] = systemFields.map { system in
            FieldDeclaration(name: system.rawValue, type: DeclaredFieldType(system.type), indexes: declared[system.rawValue]?.indexes ?? [])
        }
        fields += type.customFields.sorted { $0.name < $1.name }
        let names = fields.map { name($0.name) }
        let width = names.map(\.count).max() ?? 0
        var members: [String] = []
        for (field, shown) in zip(fields, names) {
            var line = shown.padding(toLength: width, withPad: " ", startingAt: 0) + " " + field.type.description
            if !field.indexes.isEmpty { line += " \(field.indexes)" }
            members.append(line)
        }
        for grant in type.grants {
            members.append("GRANT " + grant.permissions.map(\.rawValue).joined(separator: ", ") + " TO " + name(grant.role))
        }
        output += "    RECORD TYPE \(name(type.name)) (\n"
        output += members.map { "        " + $0 }.joined(separator: ",\n")
        output += "\n    );\n"
    }

    /// A name as the schema language writes it: bare when it can be, else in double quotes.
    public static func name(_ text: String) -> String {
        let scalars = text.unicodeScalars
        let plain = scalars.first.map { ("a"..."z").contains($0) || ("A"..."Z").contains($0) } == true
            && scalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
            && !SchemaParser.reservedWords.contains(text.uppercased())
        return plain ? text : "\"\(text)\""
    }
}

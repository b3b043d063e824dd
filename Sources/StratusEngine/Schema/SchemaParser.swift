import StratusModel
import StratusCloud

/// Where the parts of a parsed document were written, for the rule checker's messages.
struct SchemaPositions: Sendable {
    struct Point: Sendable {
        var line: Int
        var column: Int
    }

    struct TypePositions: Sendable {
        var name: Point
        /// Per field, where its name and its type start.
        var fieldNames: [Point] = []
        var fieldTypes: [Point] = []
        /// Per grant, where its role is.
        var grantRoles: [Point] = []
    }

    var roles: [Point] = []
    var types: [TypePositions] = []
}

/// A recursive-descent parser for the CloudKit Schema Language grammar:
///
/// ```
/// create-schema:  DEFINE SCHEMA [ { create-role | record-type } ";" ] ...
/// create-role:    CREATE ROLE %role-name%
/// record-type:    RECORD TYPE %type-name% ( { field | GRANT perm [, ...] TO %role-name% } [, ...] )
/// field:          %field-name% data-type [ QUERYABLE | SORTABLE | SEARCHABLE ] ...
/// data-type:      primitive-type | LIST < primitive-type >
/// primitive-type: ASSET | BYTES | DOUBLE | INT64 | LOCATION | REFERENCE | STRING | TIMESTAMP
///                 | ENCRYPTED { BYTES | STRING | DOUBLE | INT64 | LOCATION | TIMESTAMP }
///                 | NUMBER [ PREFERRED AS { INT64 | DOUBLE } ]
/// ```
///
/// Keywords are case-insensitive. Names are bare identifiers or double-quoted ones; the
/// reserved words (GRANT, PREFERRED, QUERYABLE, SORTABLE, SEARCHABLE) must be quoted to be names.
struct SchemaParser {
    private var lexer: SchemaLexer
    private var current: SchemaToken?

    init(text: String) { lexer = SchemaLexer(text: text) }

    static let reservedWords: Set<String> = ["GRANT", "PREFERRED", "QUERYABLE", "SORTABLE", "SEARCHABLE"]
    static let optionWords: [(String, FieldIndexes)] = [("QUERYABLE", .queryable), ("SEARCHABLE", .searchable), ("SORTABLE", .sortable)]

    private static let identifier = "<IDENTIFIER>"
    private static let quotedIdentifier = "<QUOTED_IDENTIFIER>"
    private static let typeWords = ["\"ASSET\"", "\"BYTES\"", "\"DOUBLE\"", "\"ENCRYPTED\"", "\"INT64\"", "\"LIST\"", "\"LOCATION\"",
                                    "\"NUMBER\"", "\"REFERENCE\"", "\"STRING\"", "\"TIMESTAMP\""]

    // MARK: - Tokens

    private mutating func peek() throws(SchemaLanguageError) -> SchemaToken {
        if let current { return current }
        let token = try lexer.next()
        current = token
        return token
    }

    @discardableResult
    private mutating func take() throws(SchemaLanguageError) -> SchemaToken {
        let token = try peek()
        current = nil
        return token
    }

    private mutating func expectKeyword(_ word: String) throws(SchemaLanguageError) {
        let token = try peek()
        guard token.isKeyword(word) else { throw .unexpected(token, expecting: ["\"\(word)\""]) }
        try take()
    }

    private mutating func expectSymbol(_ symbol: String, orAlso others: [String] = []) throws(SchemaLanguageError) {
        let token = try peek()
        guard token.isSymbol(symbol) else { throw .unexpected(token, expecting: ["\"\(symbol)\""] + others) }
        try take()
    }

    /// A name: a bare identifier that is not a reserved word, or a quoted identifier.
    private mutating func name(orAlso others: [String] = []) throws(SchemaLanguageError) -> (String, SchemaPositions.Point) {
        let token = try peek()
        switch token.kind {
        case .quoted:
            try take()
            return (token.value, SchemaPositions.Point(line: token.line, column: token.column))
        case .word where !SchemaParser.reservedWords.contains(token.value.uppercased()):
            try take()
            return (token.value, SchemaPositions.Point(line: token.line, column: token.column))
        default:
            throw .unexpected(token, expecting: others + [SchemaParser.identifier, SchemaParser.quotedIdentifier])
        }
    }

    // MARK: - Grammar

    mutating func parseSchema() throws(SchemaLanguageError) -> (SchemaDocument, SchemaPositions) {
        var document = SchemaDocument()
        var positions = SchemaPositions()
        try expectKeyword("DEFINE")
        try expectKeyword("SCHEMA")
        while true {
            let token = try peek()
            if token.kind == .end { break }
            if token.isKeyword("CREATE") {
                try take()
                try expectKeyword("ROLE")
                let (role, point) = try name()
                document.roles.append(role)
                positions.roles.append(point)
            } else if token.isKeyword("RECORD") {
                let (type, typePositions) = try recordType()
                document.recordTypes.append(type)
                positions.types.append(typePositions)
            } else {
                throw .unexpected(token, expecting: ["<EOF>", "\"CREATE\"", "\"RECORD\""])
            }
            try expectSymbol(";")
        }
        return (document, positions)
    }

    private mutating func recordType() throws(SchemaLanguageError) -> (RecordTypeDeclaration, SchemaPositions.TypePositions) {
        try expectKeyword("RECORD")
        try expectKeyword("TYPE")
        let (typeName, namePoint) = try name()
        var declaration = RecordTypeDeclaration(name: typeName)
        var positions = SchemaPositions.TypePositions(name: namePoint)
        try expectSymbol("(")
        if try peek().isSymbol(")") {
            try take()
            return (declaration, positions)
        }
        while true {
            var expectedAfter = ["\",\"", "\")\""]
            if try peek().isKeyword("GRANT") {
                try take()
                var permissions: [GrantDeclaration.Permission] = [try permission()]
                while try peek().isSymbol(",") {
                    try take()
                    permissions.append(try permission())
                }
                let toToken = try peek()
                guard toToken.isKeyword("TO") else { throw .unexpected(toToken, expecting: ["\",\"", "\"TO\""]) }
                try take()
                let (role, point) = try name()
                declaration.grants.append(GrantDeclaration(permissions, to: role))
                positions.grantRoles.append(point)
            } else {
                let (fieldName, point) = try name(orAlso: ["\"GRANT\""])
                let typeToken = try peek()
                let type = try dataType()
                var indexes: FieldIndexes = []
                while true {
                    let token = try peek()
                    guard let option = SchemaParser.optionWords.first(where: { token.isKeyword($0.0) }) else { break }
                    try take()
                    indexes.insert(option.1)
                }
                declaration.fields.append(FieldDeclaration(name: fieldName, type: type, indexes: indexes))
                let options = SchemaParser.optionWords.filter { !indexes.contains($0.1) }.map { "\"\($0.0)\"" }
                expectedAfter = (type.kind == .number && type.preferred == nil && !type.isList && indexes.isEmpty ? ["\"PREFERRED\""] : [])
                    + options + expectedAfter
                positions.fieldNames.append(point)
                positions.fieldTypes.append(SchemaPositions.Point(line: typeToken.line, column: typeToken.column))
            }
            let token = try peek()
            if token.isSymbol(",") { try take(); continue }
            if token.isSymbol(")") { try take(); break }
            throw .unexpected(token, expecting: expectedAfter)
        }
        return (declaration, positions)
    }

    private mutating func permission() throws(SchemaLanguageError) -> GrantDeclaration.Permission {
        let token = try peek()
        for permission in GrantDeclaration.Permission.allCases where token.isKeyword(permission.rawValue) {
            try take()
            return permission
        }
        throw .unexpected(token, expecting: ["\"CREATE\"", "\"READ\"", "\"WRITE\""])
    }

    private mutating func dataType() throws(SchemaLanguageError) -> DeclaredFieldType {
        if try peek().isKeyword("LIST") {
            try take()
            try expectSymbol("<")
            var type = try primitiveType(allowList: false)
            try expectSymbol(">")
            type.isList = true
            return type
        }
        return try primitiveType(allowList: true)
    }

    private mutating func primitiveType(allowList: Bool) throws(SchemaLanguageError) -> DeclaredFieldType {
        let token = try peek()
        let expected = allowList ? SchemaParser.typeWords : SchemaParser.typeWords.filter { $0 != "\"LIST\"" }
        guard token.kind == .word else { throw .unexpected(token, expecting: expected) }
        if token.isKeyword("ENCRYPTED") {
            try take()
            let next = try peek()
            for kind in DeclaredFieldType.Kind.allCases where kind.canBeEncrypted && next.isKeyword(kind.rawValue) {
                try take()
                return DeclaredFieldType(kind, encrypted: true)
            }
            throw .unexpected(next, expecting: ["\"BYTES\"", "\"DOUBLE\"", "\"INT64\"", "\"LOCATION\"", "\"STRING\"", "\"TIMESTAMP\""])
        }
        guard let kind = DeclaredFieldType.Kind(rawValue: token.value.uppercased()) else {
            throw .unexpected(token, expecting: expected)
        }
        try take()
        guard kind == .number, try peek().isKeyword("PREFERRED") else { return DeclaredFieldType(kind) }
        try take()
        try expectKeyword("AS")
        let preferredToken = try peek()
        if preferredToken.isKeyword("INT64") { try take(); return DeclaredFieldType(.number, preferred: .int64) }
        if preferredToken.isKeyword("DOUBLE") { try take(); return DeclaredFieldType(.number, preferred: .double) }
        throw .unexpected(preferredToken, expecting: ["\"DOUBLE\"", "\"INT64\""])
    }

    /// Parses a lone type spelling (as the store keeps declared types), to the end of the text.
    mutating func parseStandaloneType() throws(SchemaLanguageError) -> DeclaredFieldType {
        let type = try dataType()
        let end = try peek()
        guard end.kind == .end else { throw .unexpected(end, expecting: ["<EOF>"]) }
        return type
    }
}

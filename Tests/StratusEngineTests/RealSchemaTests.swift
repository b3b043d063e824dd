import Foundation
import StratusEngine
import StratusModel
import Testing
import StratusTestSupport
import StratusCloud

/// One schema per construct real containers export (`cktool export-schema`): each must parse,
/// import into a store, and come back from the store as the same schema.
@Suite(.onEveryBackend) struct RealSchemaTests {
    private static let systemFields = """
            "___createTime" TIMESTAMP,
            "___createdBy"  REFERENCE,
            "___etag"       STRING,
            "___modTime"    TIMESTAMP,
            "___modifiedBy" REFERENCE,
            "___recordID"   REFERENCE QUERYABLE,
        """

    private static func schema(_ members: String, roles: String = "", typeName: String = "Item") -> String {
        """
        DEFINE SCHEMA
            \(roles)
            RECORD TYPE \(typeName) (
        \(systemFields)
                \(members)
            );
        """
    }

    /// Parses, imports into a new store, exports, and checks the store's schema is the file's.
    private func roundTrip(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let document = try SchemaDocument.parse(text)
        let temp = try TemporaryStore()
        _ = try temp.store.importSchema(document)
        var exported = try temp.store.exportSchema()
        // A store keeps its own Users type when the file leaves it out (as an import does).
        if document.recordType(named: "Users") == nil { exported.recordTypes.removeAll { $0.name == "Users" } }
        #expect(SchemaDiff(from: document, to: exported).isEmpty, "\(SchemaDiff(from: document, to: exported).changes)",
                sourceLocation: sourceLocation)
        #expect(try SchemaDocument.parse(exported.text) == exported, sourceLocation: sourceLocation)
    }

    @Test func bytesFieldsKeepTheIndexesCoreDataMirroringGivesThem() throws {
        try roundTrip(Self.schema("CD_data BYTES QUERYABLE SORTABLE,\n CD_blob LIST<BYTES> QUERYABLE, CD_data_ckAsset ASSET"))
        // Indexed or not, bytes are not a query's to compare.
        let temp = try TemporaryStore()
        _ = try temp.store.importSchema(text: Self.schema("CD_data BYTES QUERYABLE SORTABLE"))
        let query = Query(recordType: "Item", predicateFormat: "CD_data == %@", arguments: [.value(.string("x"))])
        #expect(throws: CloudKitError.self) { try temp.privateDB.records(matching: query) }
    }

    @Test func assetsStillTakeNoIndexes() throws {
        #expect(throws: SchemaLanguageError.self) { try SchemaDocument.parse(Self.schema("photo ASSET QUERYABLE")) }
    }

    @Test func everyEncryptedType() throws {
        try roundTrip(Self.schema("""
            a ENCRYPTED BYTES, b ENCRYPTED STRING, c ENCRYPTED DOUBLE, d ENCRYPTED INT64,
            e ENCRYPTED LOCATION, f ENCRYPTED TIMESTAMP, g LIST<ENCRYPTED STRING>
            """))
        #expect(throws: SchemaLanguageError.self) { try SchemaDocument.parse(Self.schema("a ENCRYPTED STRING QUERYABLE")) }
    }

    @Test func numbersWithAndWithoutAPreferredType() throws {
        try roundTrip(Self.schema("a NUMBER, b NUMBER PREFERRED AS INT64, c NUMBER PREFERRED AS DOUBLE, d LIST<NUMBER PREFERRED AS INT64>"))
    }

    @Test func theShareTypeWithItsDottedSystemFields() throws {
        try roundTrip(Self.schema("""
            "cloudkit.thumbnailImageData" BYTES, "cloudkit.title" STRING, "cloudkit.type" STRING,
            GRANT WRITE TO "_creator", GRANT CREATE TO "_icloud", GRANT READ TO "_world"
            """, typeName: "\"cloudkit.share\""))
        // The share type's own fields keep their types; dotted names stay refused elsewhere.
        #expect(throws: SchemaLanguageError.self) {
            try SchemaDocument.parse(Self.schema("\"cloudkit.title\" INT64", typeName: "\"cloudkit.share\""))
        }
        #expect(throws: SchemaLanguageError.self) { try SchemaDocument.parse(Self.schema("\"cloudkit.title\" STRING")) }
        #expect(throws: SchemaLanguageError.self) { try SchemaDocument.parse(Self.schema("name STRING", typeName: "\"cloud.kit\"")) }
    }

    @Test func quotedReservedWordsAndRolesWithSpaces() throws {
        try roundTrip(Self.schema("""
            "grant" STRING QUERYABLE, "sortable" INT64 SORTABLE, "preferred" DOUBLE,
            GRANT READ, CREATE, WRITE TO "test role", GRANT READ TO DeptManager
            """, roles: "CREATE ROLE \"test role\";\n    CREATE ROLE DeptManager;"))
    }

    @Test func systemFieldOptionsAndEveryPlainType() throws {
        try roundTrip("""
            DEFINE SCHEMA
                RECORD TYPE Everything (
                    "___createTime" TIMESTAMP QUERYABLE SORTABLE,
                    "___createdBy"  REFERENCE QUERYABLE,
                    "___etag"       STRING,
                    "___modTime"    TIMESTAMP QUERYABLE SORTABLE,
                    "___modifiedBy" REFERENCE QUERYABLE,
                    "___recordID"   REFERENCE QUERYABLE,
                    asset ASSET, assets LIST<ASSET>, bytes BYTES, double DOUBLE SORTABLE, int INT64 QUERYABLE SORTABLE,
                    location LOCATION QUERYABLE, locations LIST<LOCATION>, ref REFERENCE QUERYABLE SORTABLE,
                    refs LIST<REFERENCE> QUERYABLE, text STRING QUERYABLE SEARCHABLE SORTABLE,
                    texts LIST<STRING> QUERYABLE SEARCHABLE, time TIMESTAMP QUERYABLE SORTABLE, times LIST<TIMESTAMP>,
                    GRANT WRITE TO "_creator", GRANT CREATE TO "_icloud", GRANT READ TO "_world"
                );
            """)
    }

    @Test func usersWithCustomFieldsAndCommentsAnywhere() throws {
        try roundTrip("""
            // exported by cktool
            DEFINE SCHEMA
                -- the users of the container
                RECORD TYPE Users (
            \(Self.systemFields)
                    /* a field the app added */ nickname STRING QUERYABLE,
                    roles           LIST<INT64>,
                    GRANT WRITE TO "_creator",
                    GRANT READ TO "_world"
                );
            """)
    }
}

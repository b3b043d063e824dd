import StratusCloud
/// Schema files written from the CloudKit Schema Language grammar, one construct family each,
/// kept as strings so the test target needs no resources.
enum SchemaFixtures {
    /// Apple's example: roles, system fields with options, lists, the recommended grants.
    static let department = """
        DEFINE SCHEMA
            CREATE ROLE DeptManager;
            RECORD TYPE Department (
                "___createTime" TIMESTAMP QUERYABLE SORTABLE,
                "___recordID" REFERENCE QUERYABLE,
                name STRING,
                phone LIST<STRING>,
                employees LIST<REFERENCE>,
                GRANT WRITE TO "_creator",
                GRANT CREATE TO "_icloud",
                GRANT READ TO "_world",
                GRANT WRITE, CREATE, READ TO DeptManager
            );
        """

    /// A real `cktool export-schema` output (apple/sample-cloudkit-tooling coins_v2.ckdb).
    static let coins = """
        DEFINE SCHEMA

            RECORD TYPE Coins (
                "___createTime" TIMESTAMP,
                "___createdBy"  REFERENCE,
                "___etag"       STRING,
                "___modTime"    TIMESTAMP,
                "___modifiedBy" REFERENCE,
                "___recordID"   REFERENCE QUERYABLE,
                composition     LIST<REFERENCE>,
                currencyCode    STRING QUERYABLE SORTABLE,
                issueYear       INT64,
                nominalValue    DOUBLE QUERYABLE SORTABLE,
                GRANT WRITE TO "_creator",
                GRANT CREATE TO "_icloud",
                GRANT READ TO "_world"
            );

            RECORD TYPE Users (
                "___createTime" TIMESTAMP,
                "___createdBy"  REFERENCE,
                "___etag"       STRING,
                "___modTime"    TIMESTAMP,
                "___modifiedBy" REFERENCE,
                "___recordID"   REFERENCE,
                roles           LIST<INT64>,
                GRANT WRITE TO "_creator",
                GRANT READ TO "_world"
            );

        """

    /// Every type, every ENCRYPTED form, NUMBER with and without PREFERRED AS, lists of each.
    static let everyType = """
        DEFINE SCHEMA
            RECORD TYPE Kitchen (
                anAsset ASSET,
                someBytes BYTES,
                aDouble DOUBLE QUERYABLE SORTABLE,
                anInt INT64 SORTABLE,
                aPlace LOCATION QUERYABLE,
                aLink REFERENCE QUERYABLE,
                aText STRING SEARCHABLE,
                aTime TIMESTAMP QUERYABLE,
                secretBytes ENCRYPTED BYTES,
                secretText ENCRYPTED STRING,
                secretDouble ENCRYPTED DOUBLE,
                secretInt ENCRYPTED INT64,
                secretPlace ENCRYPTED LOCATION,
                secretTime ENCRYPTED TIMESTAMP,
                loose NUMBER,
                wholeNumber NUMBER PREFERRED AS INT64 QUERYABLE,
                realNumber NUMBER PREFERRED AS DOUBLE,
                assets LIST<ASSET>,
                blobs LIST<BYTES>,
                doubles LIST<DOUBLE>,
                ints LIST<INT64> QUERYABLE,
                places LIST<LOCATION>,
                links LIST<REFERENCE>,
                texts LIST<STRING> SEARCHABLE QUERYABLE,
                times LIST<TIMESTAMP>,
                secretTexts LIST<ENCRYPTED STRING>,
                numbers LIST<NUMBER PREFERRED AS DOUBLE>
            );
        """

    /// Options in every order, quoted identifiers and reserved words, keywords in lower case,
    /// all three comment forms, an empty type.
    static let syntaxCorners = """
        -- a line comment
        define schema // another
            /* a block comment
               over two lines */
            create role "test role";
            CREATE ROLE Editor;
            RECORD TYPE "Note" (
                "grant" STRING QUERYABLE,
                "queryable" STRING SORTABLE QUERYABLE,
                "sortable" INT64 SORTABLE QUERYABLE,
                "searchable" STRING SEARCHABLE SORTABLE QUERYABLE,
                "preferred" DOUBLE,
                title string queryable searchable sortable, -- trailing comment
                location LOCATION,
                list LIST<STRING>,
                "___modTime" TIMESTAMP SORTABLE QUERYABLE,
                "___etag" STRING QUERYABLE,
                GRANT READ, WRITE, CREATE TO "test role",
                GRANT read TO Editor /* inline */
            );
            RECORD TYPE Empty ();
        """

    /// Broken files: (text, line, column, what the message must say).
    static let broken: [(String, Int, Int, String)] = [
        ("RECORD TYPE A ();", 1, 1, #"Encountered "RECORD" at line 1, column 1. Was expecting: "DEFINE""#),
        ("DEFINE SCHEMA\n    RECORD TYPE A (\n        name BADTYPE\n    );", 3, 14,
         #"Encountered "BADTYPE" at line 3, column 14. Was expecting one of: "ASSET", "BYTES", "DOUBLE", "ENCRYPTED", "INT64", "LIST""#),
        ("DEFINE SCHEMA\n    RECORD TYPE A (\n        name STRING\n    )", 4, 6, #"Encountered "<EOF>" at line 4, column 6. Was expecting: ";""#),
        ("DEFINE SCHEMA RECORD TYPE A (name STRING QUERYABLE,);", 1, 52, #"Encountered ")" at line 1, column 52. Was expecting one of: "GRANT", <IDENTIFIER>, <QUOTED_IDENTIFIER>"#),
        ("DEFINE SCHEMA RECORD TYPE A (name STRING FAST);", 1, 42, #"Was expecting one of: "QUERYABLE", "SEARCHABLE", "SORTABLE", ",", ")""#),
        ("DEFINE SCHEMA RECORD TYPE A (queryable STRING);", 1, 30, #"Encountered "queryable" at line 1, column 30"#),
        ("DEFINE SCHEMA RECORD TYPE A (secret ENCRYPTED ASSET);", 1, 47, #"Was expecting one of: "BYTES", "DOUBLE", "INT64", "LOCATION", "STRING", "TIMESTAMP""#),
        ("DEFINE SCHEMA RECORD TYPE A (n NUMBER PREFERRED AS STRING);", 1, 52, #"Was expecting one of: "DOUBLE", "INT64""#),
        ("DEFINE SCHEMA RECORD TYPE A (l LIST<LIST<STRING>>);", 1, 37, #"Encountered "LIST" at line 1, column 37"#),
        ("DEFINE SCHEMA RECORD TYPE A (GRANT READ WRITE TO x);", 1, 41, #"Was expecting one of: ",", "TO""#),
        ("DEFINE SCHEMA RECORD TYPE A (GRANT DELETE TO x);", 1, 36, #"Was expecting one of: "CREATE", "READ", "WRITE""#),
        ("DEFINE SCHEMA\nRECORD TYPE A (name STRING);\nRECORD TYPE B (x @ STRING);", 3, 18, #"Lexical error at line 3, column 18. Encountered: "@""#),
        ("DEFINE SCHEMA /* never closed", 1, 15, "is not closed with */"),
        ("DEFINE SCHEMA RECORD TYPE A (\"name STRING);", 1, 30, "is not closed on its line"),
        // Rules beyond the grammar.
        ("DEFINE SCHEMA RECORD TYPE A (name STRING, name INT64);", 1, 43, "Field name is declared twice in record type A at line 1, column 43."),
        ("DEFINE SCHEMA RECORD TYPE A (name STRING); RECORD TYPE A (x STRING);", 1, 56, "Record type A is declared twice"),
        ("DEFINE SCHEMA RECORD TYPE A (\"___createTime\" STRING);", 1, 46, "System field \"___createTime\" has type TIMESTAMP and cannot be declared as STRING"),
        ("DEFINE SCHEMA RECORD TYPE A (\"___share\" REFERENCE);", 1, 30, "reserved for the system fields"),
        ("DEFINE SCHEMA RECORD TYPE A (photo ASSET QUERYABLE);", 1, 36, "cannot be indexed"),
        ("DEFINE SCHEMA RECORD TYPE A (n INT64 SEARCHABLE);", 1, 32, "only STRING fields can be SEARCHABLE"),
        ("DEFINE SCHEMA RECORD TYPE A (s ENCRYPTED STRING QUERYABLE);", 1, 32, "encrypted fields cannot be QUERYABLE"),
        ("DEFINE SCHEMA RECORD TYPE A (GRANT READ TO Nobody);", 1, 44, "names role Nobody, which is neither created"),
        ("DEFINE SCHEMA CREATE ROLE \"_admin\";", 1, 27, "names starting with '_' belong to CloudKit's own roles"),
        ("DEFINE SCHEMA CREATE ROLE R; CREATE ROLE R;", 1, 42, "Role R is created twice"),
        ("DEFINE SCHEMA RECORD TYPE \"My Type\" (x STRING);", 1, 27, "'My Type' is not a valid record type name"),
        ("DEFINE SCHEMA RECORD TYPE Users (roles LIST<STRING>);", 1, 40, "Field roles of record type Users is LIST<INT64>"),
    ]
}

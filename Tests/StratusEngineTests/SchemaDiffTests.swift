import StratusEngine
import Testing

@Suite struct SchemaDiffTests {
    private static let production = """
        DEFINE SCHEMA
            CREATE ROLE Editor;
            CREATE ROLE Auditor;
            RECORD TYPE Trip (
                "___recordID" REFERENCE QUERYABLE,
                title STRING QUERYABLE SEARCHABLE SORTABLE,
                nights INT64 QUERYABLE SORTABLE,
                rating NUMBER,
                budget DOUBLE,
                notes STRING,
                GRANT WRITE TO "_creator",
                GRANT CREATE TO "_icloud",
                GRANT READ TO "_world"
            );
            RECORD TYPE Old (
                name STRING
            );
        """

    private func diff(_ old: String, _ new: String) throws -> SchemaDiff {
        SchemaDiff(from: try SchemaDocument.parse(old), to: try SchemaDocument.parse(new))
    }

    private func change(_ diff: SchemaDiff, _ kind: SchemaDiff.Change.Kind, _ name: String) throws -> SchemaDiff.Change {
        try #require(diff.changes.first { $0.kind == kind && $0.name == name }, "no \(kind) of \(name) in \(diff.changes)")
    }

    @Test func identicalSchemasHaveNoChanges() throws {
        let same = try diff(Self.production, Self.production)
        #expect(same.isEmpty)
        #expect(same.refusedInProduction.isEmpty)
    }

    @Test func aSideWithoutUsersReadsAsTheStandardUsersType() throws {
        let withUsers = Self.production + """

                RECORD TYPE Users (
                    "___recordID" REFERENCE QUERYABLE,
                    roles LIST<INT64>,
                    GRANT WRITE TO "_creator",
                    GRANT READ TO "_world"
                );
            """
        let result = try diff(Self.production, withUsers)
        // Only the option on the system field differs from the implicit Users type.
        #expect(result.changes.map(\.description) == ["~ indexes Users.___recordID: (none) → QUERYABLE"])
    }

    @Test func addedAndRemovedRoles() throws {
        let result = try diff(Self.production, Self.production.replacingOccurrences(of: "CREATE ROLE Auditor;", with: "CREATE ROLE Viewer;"))
        #expect(try change(result, .roleAdded, "Viewer").deployRefusal == nil)
        #expect(try change(result, .roleRemoved, "Auditor").deployRefusal == "a role cannot be deleted once it is in production")
        #expect(result.refusedInProduction.count == 1)
    }

    @Test func addedAndRemovedTypes() throws {
        let new = Self.production.replacingOccurrences(of: "RECORD TYPE Old (", with: "RECORD TYPE Place (")
        let result = try diff(Self.production, new)
        #expect(try change(result, .typeAdded, "Place").deployRefusal == nil)
        #expect(try change(result, .fieldAdded, "name").recordType == "Place")
        let removed = try change(result, .typeRemoved, "Old")
        #expect(removed.deployRefusal == "a record type cannot be deleted from the production schema")
        #expect(removed.description == "- type Old")
    }

    @Test func addedAndRemovedFields() throws {
        let new = Self.production.replacingOccurrences(of: "notes STRING,", with: "summary STRING QUERYABLE,")
        let result = try diff(Self.production, new)
        let added = try change(result, .fieldAdded, "summary")
        #expect(added.deployRefusal == nil)
        #expect(added.description == "+ field Trip.summary STRING QUERYABLE")
        let removed = try change(result, .fieldRemoved, "notes")
        #expect(removed.deployRefusal == "a field cannot be deleted from a record type in production")
        #expect(result.refusedInProduction == [removed])
    }

    @Test func retypedFieldsAreRefusedExceptANumberGettingItsPreferredType() throws {
        let new = Self.production
            .replacingOccurrences(of: "budget DOUBLE,", with: "budget INT64,")
            .replacingOccurrences(of: "rating NUMBER,", with: "rating NUMBER PREFERRED AS INT64,")
            .replacingOccurrences(of: "notes STRING,", with: "notes ENCRYPTED STRING,")
        let result = try diff(Self.production, new)
        let budget = try change(result, .fieldRetyped, "budget")
        #expect(budget.description == "~ field Trip.budget: DOUBLE → INT64")
        #expect(budget.deployRefusal == "a field's type cannot change in production")
        #expect(try change(result, .fieldRetyped, "notes").deployRefusal != nil)
        let rating = try change(result, .fieldRetyped, "rating")
        #expect(rating.after == "NUMBER PREFERRED AS INT64")
        #expect(rating.deployRefusal == nil)
        #expect(result.refusedInProduction.count == 2)
    }

    @Test func indexChangesDeploy() throws {
        let new = Self.production
            .replacingOccurrences(of: "nights INT64 QUERYABLE SORTABLE,", with: "nights INT64 QUERYABLE,")
            .replacingOccurrences(of: "\"___recordID\" REFERENCE QUERYABLE,", with: "")
        let result = try diff(Self.production, new)
        let nights = try change(result, .fieldIndexesChanged, "nights")
        #expect(nights.description == "~ indexes Trip.nights: QUERYABLE SORTABLE → QUERYABLE")
        #expect(nights.deployRefusal == nil)
        let recordID = try change(result, .fieldIndexesChanged, "___recordID")
        #expect(recordID.before == "QUERYABLE")
        #expect(recordID.after == "")
        #expect(result.refusedInProduction.isEmpty)
    }

    @Test func grantChangesPerRole() throws {
        let new = Self.production
            .replacingOccurrences(of: "GRANT CREATE TO \"_icloud\",", with: "GRANT CREATE, WRITE TO \"_icloud\", GRANT READ TO Editor,")
            .replacingOccurrences(of: "GRANT READ TO \"_world\"", with: "GRANT READ TO \"_icloud\"")
        let result = try diff(Self.production, new)
        let icloud = try change(result, .grantChanged, "_icloud")
        #expect(icloud.before == "CREATE")
        #expect(icloud.after == "READ, CREATE, WRITE")
        #expect(icloud.description == "~ grant Trip to \"_icloud\": CREATE → READ, CREATE, WRITE")
        #expect(try change(result, .grantChanged, "_world").after == "")
        #expect(try change(result, .grantChanged, "Editor").before == "")
        #expect(result.refusedInProduction.isEmpty)
    }
}

import Foundation
import Testing
import StratusModel
@testable import StratusEngine

@Suite struct SchemaLanguageTests {
    @Test func appleExampleParsesRolesFieldsSystemOptionsAndGrants() throws {
        let document = try SchemaDocument.parse(SchemaFixtures.department)
        #expect(document.roles == ["DeptManager"])
        let type = try #require(document.recordType(named: "Department"))
        #expect(type.customFields.map(\.name) == ["name", "phone", "employees"])
        #expect(type.customFields.map(\.type.storageType) == [.string, .list(.string), .list(.reference)])
        #expect(type.systemIndexes == [.createTime: [.queryable, .sortable], .recordID: [.queryable]])
        #expect(type.grants == [
            GrantDeclaration([.write], to: "_creator"), GrantDeclaration([.create], to: "_icloud"),
            GrantDeclaration([.read], to: "_world"), GrantDeclaration([.write, .create, .read], to: "DeptManager"),
        ])
    }

    @Test func everyTypeKeepsItsDeclaredSpelling() throws {
        let type = try #require(try SchemaDocument.parse(SchemaFixtures.everyType).recordType(named: "Kitchen"))
        let spelled = Dictionary(uniqueKeysWithValues: type.fields.map { ($0.name, $0.type.description) })
        #expect(spelled["anAsset"] == "ASSET")
        #expect(spelled["secretBytes"] == "ENCRYPTED BYTES")
        #expect(spelled["secretPlace"] == "ENCRYPTED LOCATION")
        #expect(spelled["loose"] == "NUMBER")
        #expect(spelled["wholeNumber"] == "NUMBER PREFERRED AS INT64")
        #expect(spelled["secretTexts"] == "LIST<ENCRYPTED STRING>")
        #expect(spelled["numbers"] == "LIST<NUMBER PREFERRED AS DOUBLE>")
        let storage = Dictionary(uniqueKeysWithValues: type.fields.map { ($0.name, $0.type.storageType) })
        #expect(storage["secretTime"] == .timestamp)
        #expect(storage["loose"] == .double)
        #expect(storage["wholeNumber"] == .int64)
        #expect(storage["realNumber"] == .double)
        #expect(storage["numbers"] == .list(.double))
        #expect(storage["places"] == .list(.location))
        #expect(type.fields.count == 27)
        let indexes = Dictionary(uniqueKeysWithValues: type.fields.map { ($0.name, $0.indexes) })
        #expect(indexes["texts"] == [.searchable, .queryable])
        #expect(indexes["anInt"] == [.sortable])
        for spelling in spelled.values { #expect(DeclaredFieldType(spelling: spelling)?.description == spelling) }
    }

    @Test func optionsInAnyOrderQuotedNamesReservedWordsAndComments() throws {
        let document = try SchemaDocument.parse(SchemaFixtures.syntaxCorners)
        #expect(document.roles == ["test role", "Editor"])
        let note = try #require(document.recordType(named: "Note"))
        let indexes = Dictionary(uniqueKeysWithValues: note.fields.map { ($0.name, $0.indexes) })
        #expect(indexes["grant"] == [.queryable])
        #expect(indexes["sortable"] == [.queryable, .sortable])
        #expect(indexes["searchable"] == [.queryable, .sortable, .searchable])
        #expect(indexes["title"] == [.queryable, .sortable, .searchable])
        #expect(note.fields.contains { $0.name == "location" && $0.type.storageType == .location })
        #expect(note.fields.contains { $0.name == "list" && $0.type.storageType == .list(.string) })
        #expect(note.systemIndexes == [.modTime: [.queryable, .sortable], .etag: [.queryable]])
        #expect(note.grants == [GrantDeclaration([.read, .write, .create], to: "test role"), GrantDeclaration([.read], to: "Editor")])
        #expect(document.recordType(named: "Empty")?.fields.isEmpty == true)
        let text = document.text
        #expect(text.contains(#"        "grant"         STRING QUERYABLE,"#))
        #expect(text.contains(#"        "searchable"    STRING QUERYABLE SEARCHABLE SORTABLE,"#))
        #expect(text.contains(#"    CREATE ROLE "test role";"#))
        #expect(text.contains(#"        GRANT READ, WRITE, CREATE TO "test role","#))
    }

    @Test func brokenFilesNameLineColumnAndExpectation() {
        for (text, line, column, message) in SchemaFixtures.broken {
            do {
                _ = try SchemaDocument.parse(text)
                Issue.record("parsed but should fail: \(text)")
            } catch {
                #expect(error.line == line && error.column == column, "\(text) -> \(error.message)")
                #expect(error.message.contains(message), "\(text) -> \(error.message)")
            }
        }
    }

    @Test func unexpectedTokenReportsFoundAndExpected() {
        #expect(throws: SchemaLanguageError.self) { try SchemaDocument.parse("DEFINE SCHEMA RECORD TYPE A (n BADTYPE);") }
        do {
            _ = try SchemaDocument.parse("DEFINE SCHEMA\n  RECORD TYPE A (n BADTYPE);")
        } catch {
            #expect(error.found == "BADTYPE")
            #expect(error.expected.first == "\"ASSET\"")
            #expect(error.expected.count == 11)
        }
    }

    @Test func writerPrintsARealExportByteForByte() throws {
        #expect(try SchemaDocument.parse(SchemaFixtures.coins).text == SchemaFixtures.coins)
    }

    @Test func writerPutsSystemFieldsFirstAlignedThenFieldsSortedThenGrants() throws {
        let text = try SchemaDocument.parse(SchemaFixtures.department).text
        #expect(text == """
            DEFINE SCHEMA

                CREATE ROLE DeptManager;

                RECORD TYPE Department (
                    "___createTime" TIMESTAMP QUERYABLE SORTABLE,
                    "___createdBy"  REFERENCE,
                    "___etag"       STRING,
                    "___modTime"    TIMESTAMP,
                    "___modifiedBy" REFERENCE,
                    "___recordID"   REFERENCE QUERYABLE,
                    employees       LIST<REFERENCE>,
                    name            STRING,
                    phone           LIST<STRING>,
                    GRANT WRITE TO "_creator",
                    GRANT CREATE TO "_icloud",
                    GRANT READ TO "_world",
                    GRANT WRITE, CREATE, READ TO DeptManager
                );

            """)
    }

    @Test func printedSchemasParseBackToTheSameDocument() throws {
        for fixture in [SchemaFixtures.department, SchemaFixtures.coins, SchemaFixtures.everyType, SchemaFixtures.syntaxCorners] {
            let printed = try SchemaDocument.parse(fixture).text
            let reparsed = try SchemaDocument.parse(printed)
            #expect(reparsed.text == printed)
            let original = try SchemaDocument.parse(fixture)
            for type in original.recordTypes {
                let again = try #require(reparsed.recordType(named: type.name))
                #expect(Set(again.customFields) == Set(type.customFields))
                #expect(again.systemIndexes == type.systemIndexes)
                #expect(again.grants == type.grants)
            }
            #expect(Set(reparsed.roles) == Set(original.roles))
        }
    }

    @Test func longNamesWidenTheNameColumnForEveryField() throws {
        let text = try SchemaDocument.parse("DEFINE SCHEMA RECORD TYPE A (aVeryLongFieldNameIndeed STRING, b INT64);").text
        #expect(text.contains("        \"___etag\"                STRING,\n"))
        #expect(text.contains("        aVeryLongFieldNameIndeed STRING,\n"))
        #expect(text.contains("        b                        INT64\n"))
    }
}

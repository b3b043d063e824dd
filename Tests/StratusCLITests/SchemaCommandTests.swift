import Foundation
import Testing

@Suite(.serialized) struct SchemaCommandTests {
    private static let schema = """
        DEFINE SCHEMA
            CREATE ROLE Editor;
            RECORD TYPE Item (
                "___recordID" REFERENCE QUERYABLE,
                name STRING QUERYABLE SEARCHABLE SORTABLE,
                price INT64 SORTABLE,
                secret ENCRYPTED STRING,
                GRANT READ TO "_world",
                GRANT WRITE, CREATE TO Editor
            );
        """

    private func write(_ text: String, _ name: String, in cli: StratusCLI) throws -> String {
        let path = cli.directory.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func validateSaysValidOrPointsAtTheError() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        let good = try write(SchemaCommandTests.schema, "good.ckdb", in: cli)
        let valid = try cli.run(["schema", "validate", good], store: false)
        #expect(valid.status == 0)
        #expect(valid.stdout == "Schema is valid.\n")
        let bad = try write("DEFINE SCHEMA\n    RECORD TYPE A (\n        name BADTYPE\n    );\n", "bad.ckdb", in: cli)
        let invalid = try cli.run(["schema", "validate", bad], store: false)
        #expect(invalid.status == 1)
        #expect(invalid.stderr.contains("bad.ckdb:3:14: Encountered \"BADTYPE\" at line 3, column 14. Was expecting one of: \"ASSET\""))
        #expect(try cli.run(["schema", "validate", cli.directory.appendingPathComponent("missing.ckdb").path], store: false).status == 2)
    }

    @Test func importExportRoundTripIsByteIdentical() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        let file = try write(SchemaCommandTests.schema, "schema.ckdb", in: cli)
        let imported = try cli.run(["schema", "import", file])
        #expect(imported.status == 0)
        #expect(imported.stdout.contains("added types: Item"))
        let exported = try cli.run(["schema", "export"])
        #expect(exported.status == 0)
        #expect(exported.stdout.hasPrefix("DEFINE SCHEMA\n\n    CREATE ROLE Editor;\n\n    RECORD TYPE Item (\n        \"___createTime\" TIMESTAMP,\n"))
        #expect(exported.stdout.contains("        secret          ENCRYPTED STRING,\n"))
        #expect(exported.stdout.contains("        GRANT WRITE, CREATE TO Editor\n    );\n"))
        let out = cli.directory.appendingPathComponent("out.ckdb").path
        #expect(try cli.run(["schema", "export", "--out", out]).status == 0)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == exported.stdout)
        #expect(try cli.run(["schema", "import", out]).status == 0)
        #expect(try cli.run(["schema", "export"]).stdout == exported.stdout)
    }

    @Test func lossyImportIsRefusedUnlessForced() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        #expect(try cli.run(["save"], stdin: #"{"recordName": "n1", "recordType": "Note", "fields": {"text": {"value": "hi"}}}"#).status == 0)
        let file = try write(SchemaCommandTests.schema, "schema.ckdb", in: cli)
        let refused = try cli.run(["schema", "import", file])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("record type Note would be removed, but 1 record holds it"))
        #expect(refused.stderr.contains("hint: add --force to import it and delete that data"))
        #expect(try cli.run(["fetch", "n1"]).status == 0)
        let forced = try cli.run(["schema", "import", file, "--force"])
        #expect(forced.status == 0)
        #expect(forced.stdout.contains("deleted 1 records"))
        #expect(try cli.run(["fetch", "n1"]).status == 1)
    }

    @Test func productionImportDecidesWhatCanBeSavedAndQueried() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        let file = try write(SchemaCommandTests.schema, "schema.ckdb", in: cli)
        #expect(try cli.run(["schema", "import", file, "--environment", "production"]).status == 0)
        #expect(try cli.run(["save"], stdin: #"{"recordName": "i1", "recordType": "Item", "fields": {"name": {"value": "Lamp"}, "price": {"value": 12}}}"#).status == 0)
        let undeclared = try cli.run(["save"], stdin: #"{"recordName": "i2", "recordType": "Item", "fields": {"color": {"value": "red"}}}"#)
        #expect(undeclared.status == 1)
        #expect(undeclared.stderr.contains("production schema"))
        let notQueryable = try cli.run(["query", "--type", "Item", "--filter", "price == 12"])
        #expect(notQueryable.status == 1)
        #expect(notQueryable.stderr.contains("Field 'price' is not marked queryable"))
        #expect(try cli.run(["query", "--type", "Item", "--filter", "price > 10"]).stdout.contains("i1"))
        #expect(try cli.run(["schema", "import", file, "--environment", "staging"]).status == 2)
    }

    @Test func recordsExportAndImportKeepSystemFields() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        #expect(try cli.run(["zones", "create", "Shop"]).status == 0)
        let lines = (0..<30).map { index in
            #"{"recordName": "item\#(index)", "recordType": "Item", "fields": {"price": {"value": \#(index)}, "name": {"value": "Item \#(index) 東京"}, "when": {"value": 1700000000123, "type": "TIMESTAMP"}}}"#
        }
        #expect(try cli.run(["save", "--zone", "Shop"], stdin: lines.joined(separator: "\n")).status == 0)
        #expect(try cli.run(["save"], stdin: #"{"recordName": "n1", "recordType": "Note", "fields": {"text": {"value": "default zone"}}}"#).status == 0)
        let file = cli.directory.appendingPathComponent("records.jsonl").path
        let exported = try cli.run(["export", "--out", file])
        #expect(exported.status == 0)
        #expect(exported.stderr.contains("exported 31 records"))
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.split(separator: "\n").count == 31)
        #expect(try cli.run(["export", "--zone", "Shop", "--type", "Item"]).stdout.split(separator: "\n").count == 30)
        #expect(try cli.run(["export", "--type", "Nothing"]).status == 1)

        let other = try StratusCLI()
        defer { other.remove() }
        let imported = try other.run(["save", "--import", file])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("imported 31 records"))
        let again = try other.run(["export"])
        #expect(again.stdout == text)
        #expect(try other.run(["query", "--zone", "Shop", "--type", "Item", "--filter", "price >= 28"]).stdout.contains("item29"))
    }

    @Test func aBrokenLineLeavesItsTransactionUnwritten() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        let good = (0..<3).map { #"{"recordName": "n\#($0)", "recordType": "Note", "fields": {"text": {"value": "fine"}}}"# }
        let outcome = try cli.run(["save", "--import", "-"], stdin: (good + [#"{"recordName": "broken", "#]).joined(separator: "\n"))
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("line 4"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("0 records imported before it"), "\(outcome.stderr)")
        #expect(try cli.run(["export"]).stdout.isEmpty)
    }
}

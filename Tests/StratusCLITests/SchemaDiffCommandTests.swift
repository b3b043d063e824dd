import Foundation
import Testing

@Suite(.serialized) struct SchemaDiffCommandTests {
    private func write(_ text: String, _ name: String, in cli: StratusCLI) throws -> String {
        let path = cli.directory.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    private static let file = """
        DEFINE SCHEMA
            RECORD TYPE Note (
                title STRING QUERYABLE,
                body STRING
            );
        """

    @Test func diffsAFileAgainstAStoreAndChecksTheDeploy() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        let file = try write(Self.file, "prod.ckdb", in: cli)
        // The store learns Note.title (every index, as development does) and Note.pages, but not body.
        #expect(try cli.run(["save"], stdin: #"{"recordName": "n1", "recordType": "Note", "fields": {"title": {"value": "hi"}, "pages": {"value": 3}}}"#).status == 0)

        let text = try cli.run(["schema", "diff", file, cli.storePath], store: false)
        #expect(text.status == 0)
        #expect(text.stdout.contains("+ field Note.pages INT64 QUERYABLE SORTABLE\n"))
        #expect(text.stdout.contains("- field Note.body STRING    ✗ refused in production: a field cannot be deleted from a record type in production\n"))
        #expect(text.stdout.contains("~ indexes Note.title: QUERYABLE → QUERYABLE SEARCHABLE SORTABLE\n"))
        #expect(text.stdout.contains("1 would be refused when deploying to production."))

        let checked = try cli.run(["schema", "diff", "--check", file, cli.storePath], store: false)
        #expect(checked.status == 1)
        #expect(try cli.run(["schema", "diff", "--check", cli.storePath, cli.storePath], store: false).status == 0)
        #expect(try cli.run(["schema", "diff", cli.storePath, cli.storePath], store: false).stdout == "The schemas are the same.\n")

        let json = try cli.run(["schema", "diff", "--json", file, cli.storePath], store: false)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["deployableToProduction"] as? Bool == false)
        let changes = try #require(object["changes"] as? [[String: Any]])
        let removed = try #require(changes.first { $0["kind"] as? String == "fieldRemoved" })
        #expect(removed["recordType"] as? String == "Note")
        #expect(removed["name"] as? String == "body")
    }

    @Test func refusesMissingFilesAndTwoStandardInputs() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        let file = try write(Self.file, "a.ckdb", in: cli)
        let missing = try cli.run(["schema", "diff", file, cli.directory.appendingPathComponent("nope.sqlite").path], store: false)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("nope.sqlite does not exist"))
        #expect(!FileManager.default.fileExists(atPath: cli.directory.appendingPathComponent("nope.sqlite").path))
        #expect(try cli.run(["schema", "diff", "-", "-"], stdin: Self.file, store: false).status == 2)
        let bad = try write("DEFINE SCHEMA\n    RECORD TYPE A ( name NOPE );\n", "bad.ckdb", in: cli)
        let invalid = try cli.run(["schema", "diff", file, bad], store: false)
        #expect(invalid.status == 1)
        #expect(invalid.stderr.contains("bad.ckdb:2:"))
    }
}

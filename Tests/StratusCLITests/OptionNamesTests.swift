import Foundation
import Testing

/// The options every command shares are spelled the same everywhere: `--db` for a database
/// (faults too), `--no-keys` for system fields only (query too).
@Suite struct OptionNamesTests {
    @Test func faultsAddTakesDbLikeEveryOtherCommand() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        #expect(try cli.run(["zones", "create", "Notes"]).status == 0)
        let added = try cli.run(["faults", "add", "zoneBusy", "--db", "public"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains("public"), "\(added.stdout)")
        // A private-database call is not matched; the old name still reads the same.
        #expect(try cli.run(["zones"]).status == 0)
        #expect(try cli.run(["faults", "add", "zoneBusy", "--database", "private", "--zone", "Notes"]).status == 0)
        #expect(try cli.run(["fetch", "x", "--zone", "Notes"]).stderr.contains("zoneBusy (23)"))
        let both = try cli.run(["faults", "add", "zoneBusy", "--db", "public", "--database", "private"])
        #expect(both.status == 2)
        #expect(both.stderr.contains("give --db once"))
        let bad = try cli.run(["faults", "add", "zoneBusy", "--db", "everywhere"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--db must be public, private or shared"))
    }

    @Test func queryTakesNoKeysLikeFetchAndChanges() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        #expect(try cli.run(["zones", "create", "Notes"]).status == 0)
        let note = #"{"recordName": "a", "recordType": "Note", "fields": {"title": {"value": "hi", "type": "STRING"}}}"#
        #expect(try cli.run(["save", "--zone", "Notes"], stdin: note).status == 0)
        let answer = try cli.json(["query", "--type", "Note", "--zone", "Notes", "--no-keys"])
        let record = try #require((answer["records"] as? [[String: Any]])?.first)
        #expect(record["recordName"] as? String == "a")
        #expect((record["fields"] as? [String: Any] ?? [:]).isEmpty, "system fields only")
        let both = try cli.run(["query", "--type", "Note", "--zone", "Notes", "--no-keys", "--keys", "title"])
        #expect(both.status == 2)
        #expect(both.stderr.contains("--keys and --no-keys exclude each other"))
    }

    @Test func aBareArgumentFillsPercentDAsANumber() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        let notes = (1...3).map { #"{"recordName": "n\#($0)", "recordType": "Note", "fields": {"rank": {"value": \#($0 * 10), "type": "INT64"}}}"# }
        #expect(try cli.run(["save"], stdin: "[" + notes.joined(separator: ",") + "]").status == 0)
        let answer = try cli.json(["query", "--type", "Note", "--filter", "rank > %d AND %K < %f", "--arg", "12", "--arg", "rank", "--arg", "25"])
        #expect((answer["records"] as? [[String: Any]])?.compactMap { $0["recordName"] as? String } == ["n2"])
        let untyped = try cli.run(["query", "--type", "Note", "--filter", "rank > %@", "--arg", "12"])
        #expect(untyped.status == 2)
        #expect(untyped.stderr.contains("--arg #1 '12': argument '12' has no type"), "\(untyped.stderr)")
    }
}

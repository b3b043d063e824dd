import Foundation
import Testing

/// With `--json`, a failure is a JSON object on standard output in the Web Services error's
/// shape (and still words on standard error), so a script that parses standard output learns
/// why there is no result.
@Suite struct JSONErrorTests {
    private func object(_ text: String) throws -> [String: Any] {
        let line = try #require(text.split(separator: "\n").last.map(String.init), "no JSON on standard output")
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test func aCloudKitErrorIsItsWebServicesDictionary() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        try cli.makeStore()
        let outcome = try cli.run(["token", "--zone", "Nowhere", "--json"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("error: zoneNotFound (26)"), "words stay on standard error")
        let error = try object(outcome.stdout)
        #expect(error["serverErrorCode"] as? String == "ZONE_NOT_FOUND")
        #expect(error["ckErrorCode"] as? String == "zoneNotFound")
        #expect((error["reason"] as? String)?.contains("Zone 'Nowhere' does not exist") == true)
        #expect((error["hint"] as? String)?.contains("stratus zones create NAME") == true)
    }

    @Test func aMissingStoreAndAnInvalidPredicateAndABadOptionAreErrorsToo() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        let missing = try object(try cli.run(["query", "--type", "Note", "--json"]).stdout)
        #expect(missing["ckErrorCode"] as? String == "badDatabase")
        #expect(missing["serverErrorCode"] as? String == "INTERNAL_ERROR", "CloudKit's code for a store it cannot use")
        #expect((missing["reason"] as? String)?.contains("No store at") == true)

        let note = #"{"recordName": "n1", "recordType": "Note", "fields": {"title": {"value": "hi"}}}"#
        #expect(try cli.run(["save"], stdin: note).status == 0)
        let predicate = try cli.run(["query", "--type", "Note", "--filter", "title ==", "--json"])
        #expect(predicate.status == 1)
        let invalid = try object(predicate.stdout)
        #expect(invalid["serverErrorCode"] as? String == "BAD_REQUEST")
        #expect((invalid["reason"] as? String)?.hasPrefix("invalidArguments (12): the predicate is not a valid CloudKit query") == true)

        let usage = try cli.run(["query", "--type", "Note", "--db", "everywhere", "--json"])
        #expect(usage.status == 2)
        let bad = try object(usage.stdout)
        #expect(bad["serverErrorCode"] as? String == "BAD_REQUEST")
        #expect(bad["reason"] as? String == "--db must be public, private or shared, not 'everywhere'")

        let parse = try cli.run(["query", "--json", "--type"])
        #expect(parse.status == 2)
        #expect((try object(parse.stdout)["reason"] as? String)?.contains("Missing value for '--type <type>'") == true)
    }

    @Test func withoutJSONStandardOutputStaysEmptyAndPartialResultsAreNotFollowedByASecondObject() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        try cli.makeStore()
        #expect(try cli.run(["token", "--zone", "Nowhere"]).stdout.isEmpty)
        #expect(try cli.run(["zones", "create", "Notes"]).status == 0)
        let first = #"{"recordName": "n1", "recordType": "Note", "fields": {"title": {"value": "hi"}}}"#
        #expect(try cli.run(["save", "--zone", "Notes"], stdin: first).status == 0)
        // A create of a record that exists fails for that record alone: the answer lists both.
        let both = "[" + first + "," + #"{"recordName": "n2", "recordType": "Note", "fields": {"title": {"value": "yo"}}}"# + "]"
        let outcome = try cli.run(["save", "--zone", "Notes", "--policy", "if-unchanged", "--json"], stdin: both)
        #expect(outcome.status == 1)
        let lines = outcome.stdout.split(separator: "\n")
        #expect(lines.count == 1, "one JSON object: \(outcome.stdout)")
        let answer = try object(outcome.stdout)
        #expect((answer["records"] as? [Any])?.count == 2)
    }
}

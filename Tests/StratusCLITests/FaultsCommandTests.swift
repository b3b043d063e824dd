import Foundation
import Testing

/// `stratus faults` end to end: the plan is kept in the store between processes, each kind
/// reaches the commands that meet it, and the counts and log say what fired.
@Suite(.serialized) struct FaultsCommandTests {
    private func note(_ name: String, tag: String? = nil, title: String = "hi") -> String {
        #"{"recordName": "\#(name)", "recordType": "Note"\#(tag.map { #", "recordChangeTag": "\#($0)""# } ?? ""), "fields": {"title": {"value": "\#(title)"}}}"#
    }

    @Test func eachKindOnTheCommandLine() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        #expect(try cli.run(["zones", "create", "Notes"]).status == 0)
        #expect(try cli.run(["save", "--zone", "Notes"], stdin: note("a")).status == 0)

        let added = try cli.run(["faults", "add", "zoneBusy", "--zone", "Notes", "--operation", "fetch", "--retry-after", "9"])
        #expect(added.status == 0)
        #expect(added.stdout.contains("Added fault #1: zoneBusy, on fetch, zone Notes, once, retry after 9 s"))
        let busy = try cli.run(["fetch", "a", "--zone", "Notes"])
        #expect(busy.status == 1)
        #expect(busy.stderr.contains("zoneBusy (23): Zone 'Notes' is busy: try again after 9 s (fault #1"))
        #expect(busy.stderr.contains("hint: the store's fault plan made this error on purpose"))
        #expect(try cli.run(["fetch", "a", "--zone", "Notes"]).status == 0)

        // A conflict made by another device, with the field it set.
        let tag = try #require(((try cli.json(["fetch", "a", "--zone", "Notes"]))["records"] as? [[String: Any]])?.first?["recordChangeTag"] as? String)
        #expect(try cli.run(["faults", "add", "serverRecordChanged", "--record", "a", "--set", "title=from the phone"]).status == 0)
        let conflict = try cli.run(["save", "--zone", "Notes", "--json"], stdin: note("a", tag: tag, title: "from the laptop"))
        #expect(conflict.status == 1)
        #expect(conflict.stdout.contains("\"serverErrorCode\":\"CONFLICT\""))
        #expect(conflict.stdout.contains("from the phone"))

        // Partial failure: the named record fails with retryAfter, the other is saved.
        #expect(try cli.run(["faults", "add", "partialFailure", "--record", "c", "--retry-after", "4"]).status == 0)
        let partial = try cli.run(["save", "--zone", "Notes", "--json"], stdin: note("b") + "\n" + note("c"))
        #expect(partial.stdout.contains("\"serverErrorCode\":\"TRY_AGAIN_LATER\""))
        #expect(partial.stdout.contains("\"retryAfter\":4"))
        #expect(try cli.run(["fetch", "b", "--zone", "Notes"]).status == 0)
        #expect(try cli.run(["fetch", "c", "--zone", "Notes"]).status != 0)

        // An expired token; playback from the beginning still works.
        let token = try #require((try cli.json(["changes", "--zone", "Notes"]))["syncToken"] as? String)
        #expect(try cli.run(["faults", "add", "changeTokenExpired", "--token", token]).status == 0)
        let expired = try cli.run(["changes", "--zone", "Notes", "--since", token])
        #expect(expired.status == 1 && expired.stderr.contains("changeTokenExpired (21)"))
        #expect(try cli.run(["changes", "--zone", "Notes"]).status == 0)

        #expect(try cli.run(["faults", "add", "limitExceeded", "--limit", "1", "--every", "1"]).status == 0)
        let tooMany = try cli.run(["save", "--zone", "Notes"], stdin: note("d") + "\n" + note("e"))
        #expect(tooMany.stderr.contains("limitExceeded (27)"))

        // The counts and the log.
        let list = try cli.run(["faults", "list", "--json"])
        let faults = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        #expect(faults.map { $0["kind"] as? String } == ["zoneBusy", "serverRecordChanged", "partialFailure", "changeTokenExpired", "limitExceeded"])
        #expect(faults.map { $0["fired"] as? Int } == [1, 1, 1, 1, 1])
        #expect(faults[0]["spent"] as? Bool == true && faults[3]["spent"] as? Bool == false)
        let log = try cli.run(["faults", "log", "--json"])
        #expect(log.stdout.split(separator: "\n").count == 5)
        #expect(log.stdout.contains("another device saved a"))
        #expect(try cli.run(["faults", "list"]).stdout.contains("#4  armed  fired 1 of 1  changeTokenExpired"))
        #expect(try cli.run(["faults", "clear", "4"]).stdout.contains("Removed fault #4."))
        #expect(try cli.run(["changes", "--zone", "Notes", "--since", token]).status == 0)
        #expect(try cli.run(["faults", "clear"]).stdout.contains("Removed 4 faults"))
        #expect(try cli.run(["faults"]).stdout.contains("The fault plan is empty"))
    }

    @Test func aFaultNamesTheClientsItMeets() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        #expect(try cli.run(["zones", "create", "Notes"]).status == 0)
        let added = try cli.run(["faults", "add", "zoneBusy", "--every", "1", "--client", "dashboard"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains("for dashboard"), "\(added.stdout)")
        // The command line is not among its clients: its calls go through.
        #expect(try cli.run(["zones"]).status == 0)
        let listed = try cli.run(["faults", "list", "--json"])
        #expect(listed.stdout.contains(#""clients":["dashboard"]"#), "\(listed.stdout)")
        let bad = try cli.run(["faults", "add", "zoneBusy", "--client", "phone"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--client: 'phone' is not a client: use server, cli or dashboard"), "\(bad.stderr)")
    }

    @Test func badPlansAreRefusedWithTheReason() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        try cli.makeStore()
        let unknown = try cli.run(["faults", "add", "meteorStrike"])
        #expect(unknown.status != 0 && unknown.stderr.contains("unknown fault kind 'meteorStrike'"))
        let wrongOperation = try cli.run(["faults", "add", "changeTokenExpired", "--operation", "modify"])
        #expect(wrongOperation.stderr.contains("changeTokenExpired does not happen on modify"))
        let both = try cli.run(["faults", "add", "zoneBusy", "--after", "1", "--every", "2"])
        #expect(both.stderr.contains("give one of --after, --every and --probability"))
        let seedless = try cli.run(["faults", "add", "zoneBusy", "--probability", "0.5"])
        #expect(seedless.stderr.contains("--probability and --seed go together"))
        #expect(try cli.run(["faults", "clear", "7"]).stderr.contains("no fault #7"))
    }
}

/// The whole-call kinds on the command line: the error with its name, number and retry hint.
@Suite(.serialized) struct WholeCallFaultsCommandTests {
    @Test(arguments: [("requestRateLimited", "requestRateLimited (7): Too many requests: try again after 5 s"),
                      ("serviceUnavailable", "serviceUnavailable (6): The service is unavailable for a moment: try again after 2 s"),
                      ("notAuthenticated", "notAuthenticated (9): The request needs a signed-in user")])
    func theCallFailsOnceWithCloudKitsError(kind: String, message: String) throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        #expect(try cli.run(["zones", "create", "Notes"]).status == 0)
        #expect(try cli.run(["faults", "add", kind, "--operation", "zones"]).status == 0)
        let failed = try cli.run(["zones"])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains(message), "\(failed.stderr)")
        let again = try cli.run(["zones"])
        #expect(again.status == 0 && again.stdout.contains("Notes"))
        let listed = try cli.run(["faults", "list"])
        #expect(listed.stdout.contains("#1  spent  fired 1 of 1  \(kind), on zones"))
    }
}

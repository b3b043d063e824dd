import Foundation
import StratusTestSupport
import Testing

/// Three `stratus serve` processes on one PostgreSQL database under 8 writers (each request an
/// atomic create and update) and readers following the zone from tokens taken during the load:
/// afterwards every record exists exactly once, playback from each kept token gives every
/// change after it exactly once, and no request got a 5xx. Then the same with one server
/// killed (SIGKILL) a third of the way in and started again: nothing acknowledged is lost and
/// a request that got no answer applied wholly or not at all.
///
/// The size is a count, not a time: `STRATUS_TEAM_LOAD_REQUESTS` (default 20,000, spread over
/// the writers) makes it smaller on a slow machine.
@Suite(.serialized) struct TeamServerLoadTests {
    static let requests = Int(ProcessInfo.processInfo.environment["STRATUS_TEAM_LOAD_REQUESTS"] ?? "") ?? 20_000
    static let writers = 8

    @Test func threeServersOnOneDatabaseLoseNothingAndEveryTokenPlaysBackExactly() async throws {
        let (outcome, final) = try await Self.load(killing: nil)
        let unanswered = outcome.writers.flatMap(\.writes).filter { !$0.acknowledged }
        #expect(unanswered.isEmpty, "\(unanswered.count) requests got no answer with every server up: \(unanswered.prefix(3))")
        try Self.verify(outcome, final: final)
    }

    @Test func aServerKilledMidLoadLosesNothingAcknowledgedAndHalfWritesNothing() async throws {
        let (outcome, final) = try await Self.load(killing: 1)
        #expect(outcome.restartFailure == nil, "\(outcome.restartFailure ?? "")")
        try Self.verify(outcome, final: final)
    }

    /// Runs the load on three fresh servers, plays the zone back from each token the readers
    /// kept, and reads the zone's final state (record name -> version) by playing it back from
    /// no token; stops the servers after.
    private static func load(killing: Int?) async throws -> (TeamLoad.Outcome, [String: Int]) {
        let team = try TeamServers(count: 3, zone: "Load")
        let result: Result<(TeamLoad.Outcome, [String: Int]), any Error>
        do {
            let load = TeamLoad(team: team, writers: writers, requestsPerWriter: requests / writers, readers: 2, checkpoints: 8, killing: killing)
            let outcome = try await load.run()
            let (names, versions) = try await playback(team, from: nil)
            let twice = names.count - Set(names).count
            #expect(twice == 0, "\(twice) records played back twice from no token")
            try await checkKeptTokens(outcome.readers, team: team)
            let unanswered = outcome.writers.flatMap(\.writes).filter { !$0.acknowledged }.count
            print("team load: \(load.totalRequests) requests on 3 servers in \(String(format: "%.1f", outcome.seconds)) s "
                + "(\(String(format: "%.0f", Double(load.totalRequests) / outcome.seconds)) per s), \(unanswered) without an answer, "
                + "\(outcome.readers.map(\.pages.count).reduce(0, +)) pages followed")
            result = .success((outcome, versions))
        } catch {
            result = .failure(error)
        }
        await team.stop()
        return try result.get()
    }

    /// Every page of the zone's changes after `token` to the end: the record names in order
    /// and each record's `version`.
    static func playback(_ team: TeamServers, from token: String?, server: Int = 0) async throws -> ([String], [String: Int]) {
        var names: [String] = []
        var versions: [String: Int] = [:]
        var token = token
        var more = true
        while more {
            let reply = try await team.changes(server, since: token, limit: 400)
            guard reply.status == 200, let zone = reply.zones.first else { throw TeamServerFailure("playback: \(reply.status) \(reply.text)") }
            for record in zone["records"] as? [[String: Any]] ?? [] {
                guard let name = record["recordName"] as? String else { continue }
                names.append(name)
                versions[name] = ((record["fields"] as? [String: Any])?["version"] as? [String: Any])?["value"] as? Int ?? -1
            }
            token = zone["syncToken"] as? String
            more = zone["moreComing"] as? Bool ?? false
        }
        return (names, versions)
    }

    /// Playback from each token a reader kept gives each record its later pages named, once,
    /// and no other (from another server than the one the token came from, in turn).
    private static func checkKeptTokens(_ readers: [TeamLoad.ReaderOutcome], team: TeamServers) async throws {
        var kept = 0
        for (index, reader) in readers.enumerated() {
            for checkpoint in reader.checkpoints {
                kept += 1
                let expected = Set(reader.pages[(checkpoint + 1)...].joined())
                let (names, _) = try await playback(team, from: reader.tokens[checkpoint], server: kept)
                let twice = names.count - Set(names).count
                #expect(twice == 0, "reader \(index), token \(checkpoint): \(twice) records played back twice")
                let missing = expected.subtracting(names), extra = Set(names).subtracting(expected)
                #expect(missing.isEmpty && extra.isEmpty, """
                    reader \(index), token \(checkpoint): \(missing.count) missing \(missing.sorted().prefix(5)), \
                    \(extra.count) extra \(extra.sorted().prefix(5))
                    """)
            }
        }
    }

    /// What every run must show, killed server or not.
    private static func verify(_ outcome: TeamLoad.Outcome, final: [String: Int]) throws {
        let serverErrors = outcome.writers.flatMap(\.serverErrors) + outcome.readers.flatMap(\.serverErrors)
        #expect(serverErrors.isEmpty, "\(serverErrors.count) answers were 5xx: \(serverErrors.prefix(3))")
        let refusals = outcome.writers.flatMap(\.refusals)
        #expect(refusals.isEmpty, "\(refusals.count) requests were refused: \(refusals.prefix(3))")

        // Each request applied wholly or not at all; an acknowledged one applied.
        var applied: Set<String> = []
        var updatedByAnApplied: Set<String> = []
        var problems: [String] = []
        for write in outcome.writers.flatMap(\.writes) {
            let created = final[write.name] != nil
            if write.acknowledged && !created { problems.append("\(write.name): acknowledged, but the record is not there") }
            guard created else {
                if let updated = write.updated, final[updated] != 0 { problems.append("\(write.name): not created, yet its update of \(updated) is there (half-written)") }
                continue
            }
            applied.insert(write.name)
            if let updated = write.updated {
                updatedByAnApplied.insert(updated)
                if final[updated] != 1 { problems.append("\(write.name): created, but its update of \(updated) is not there (half-written or lost)") }
            }
        }
        for (name, version) in final where version != (updatedByAnApplied.contains(name) ? 1 : 0) {
            problems.append("\(name): version \(version), but \(updatedByAnApplied.contains(name) ? "a request updated it" : "no request updated it")")
        }
        #expect(problems.isEmpty, "\(problems.count) problems, first: \(problems.prefix(5))")
        let stray = Set(final.keys).subtracting(applied)
        #expect(stray.isEmpty, "records no request made: \(stray.sorted().prefix(5))")
        let acknowledged = outcome.writers.flatMap(\.writes).filter(\.acknowledged).count
        #expect(acknowledged > 0, "no request was acknowledged")

        // Every reader followed every record, and each kept token plays back exactly the
        // records its later pages named, each once.
        for (index, reader) in outcome.readers.enumerated() {
            let followed = Set(reader.pages.joined())
            let unseen = Set(final.keys).subtracting(followed), unknown = followed.subtracting(final.keys)
            #expect(unseen.isEmpty && unknown.isEmpty, "reader \(index) never saw \(unseen.sorted().prefix(5)), saw absent \(unknown.sorted().prefix(5))")
            #expect(reader.checkpoints.count >= 2, "reader \(index) kept only \(reader.checkpoints.count) tokens")
        }
    }
}

import Foundation
import StratusTestSupport
import Testing

/// Two `stratus serve` processes on one PostgreSQL database race on one record's change tag,
/// round after round: both save it from the same tag at once over real HTTP, exactly one wins,
/// and the other gets serverRecordChanged (CKWS's `CONFLICT`) with the winner's record.
@Suite(.serialized) struct TeamServerRaceTests {
    static let rounds = Int(ProcessInfo.processInfo.environment["STRATUS_TEAM_RACE_ROUNDS"] ?? "") ?? 1_000

    @Test func twoServersSavingOneRecordFromOneTagLeaveExactlyOneWinnerEachRound() async throws {
        let team = try TeamServers(count: 2, zone: "Race")
        let outcome = await Self.race(team)
        await team.stop()
        let (wins, problems) = try outcome.get()
        #expect(problems.isEmpty, "\(problems.count) rounds went wrong, first: \(problems.prefix(3).map { $0.prefix(400) })")
        #expect(wins.values.reduce(0, +) == Self.rounds, "winners by server: \(wins)")
        // Both servers won some rounds: each really checked the other's writes.
        #expect(wins.count == 2, "winners by server: \(wins)")
    }

    /// Runs the rounds; returns how many each server won and what went wrong in any round.
    private static func race(_ team: TeamServers) async -> Result<([Int: Int], [String]), any Error> {
        do {
            let created = try await team.call(0, "records/modify", #"{"zoneID": {"zoneName": "Race"}, "operations": [\#(TeamServers.operation("create", name: "contested", fields: ["by": #""nobody""#]))]}"#)
            guard let first = created.records.first?["recordChangeTag"] as? String else { throw TeamServerFailure("create: \(created.text)") }
            var tag = first
            var wins: [Int: Int] = [:]
            var problems: [String] = []
            for round in 0..<rounds {
                let replies = try await withThrowingTaskGroup(of: (Int, LoopbackHTTP.Reply).self) { group in
                    for server in 0..<2 {
                        let body = #"{"zoneID": {"zoneName": "Race"}, "operations": [\#(TeamServers.operation("update", name: "contested", tag: tag, fields: ["by": #""server \#(server) round \#(round)""#]))]}"#
                        group.addTask { (server, try await team.call(server, "records/modify", body)) }
                    }
                    var replies: [Int: LoopbackHTTP.Reply] = [:]
                    for try await (server, reply) in group { replies[server] = reply }
                    return replies
                }
                switch judge(round: round, replies) {
                case .success(let (winner, newTag)):
                    wins[winner, default: 0] += 1
                    tag = newTag
                case .failure(let problem):
                    problems.append(problem.description)
                    // Carry on from whatever the record holds now.
                    let now = try await team.call(0, "records/lookup", #"{"zoneID": {"zoneName": "Race"}, "records": [{"recordName": "contested"}]}"#)
                    guard let current = now.records.first?["recordChangeTag"] as? String else { throw TeamServerFailure("lookup: \(now.text)") }
                    tag = current
                }
            }
            return .success((wins, problems))
        } catch {
            return .failure(error)
        }
    }

    /// Exactly one reply saved the record and the other is CONFLICT (serverRecordChanged) carrying the
    /// winner's record (its tag and its field): the winner and the record's new tag.
    private static func judge(round: Int, _ replies: [Int: LoopbackHTTP.Reply]) -> Result<(Int, String), TeamServerFailure> {
        var winners: [(server: Int, tag: String)] = []
        var losers: [(server: Int, item: [String: Any])] = []
        for (server, reply) in replies.sorted(by: { $0.key < $1.key }) {
            guard reply.status == 200, let item = reply.records.first else {
                return .failure(TeamServerFailure("round \(round): server \(server) answered \(reply.status) \(reply.text)"))
            }
            if item["serverErrorCode"] == nil, let tag = item["recordChangeTag"] as? String {
                winners.append((server, tag))
            } else {
                losers.append((server, item))
            }
        }
        guard winners.count == 1, let winner = winners.first, let loser = losers.first else {
            return .failure(TeamServerFailure("round \(round): \(winners.count) winners: \(replies.mapValues(\.text))"))
        }
        let serverRecord = loser.item["serverRecord"] as? [String: Any]
        let by = ((serverRecord?["fields"] as? [String: Any])?["by"] as? [String: Any])?["value"] as? String
        guard loser.item["serverErrorCode"] as? String == "CONFLICT",
              serverRecord?["recordChangeTag"] as? String == winner.tag,
              by == "server \(winner.server) round \(round)" else {
            return .failure(TeamServerFailure("round \(round): the loser's answer is not the winner's record: \(replies[loser.server]?.text ?? "")"))
        }
        return .success((winner.server, winner.tag))
    }
}

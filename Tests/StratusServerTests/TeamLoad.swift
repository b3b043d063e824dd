import Foundation
import StratusTestSupport

/// The team server's load: writers spread over several servers, each request an atomic
/// create of a new record plus an update of the writer's previous one (so a request that was
/// half-applied would show), and readers following the zone's changes from their last token
/// the whole time, keeping some tokens to play back from at the end. Optionally one server is
/// killed with SIGKILL a third of the way in and started again.
struct TeamLoad {
    let team: TeamServers
    let writers: Int
    let requestsPerWriter: Int
    let readers: Int
    /// Tokens each reader keeps for the playback afterwards, taken at even steps of the load.
    let checkpoints: Int
    /// The server to kill a third of the way in, if any.
    let killing: Int?

    /// One request of a writer: it created `name` and (when its previous request was
    /// answered) updated `updated` to version 1, all or nothing.
    struct Write: Sendable {
        var name: String
        var updated: String?
        /// The server answered 200 with both records saved. Otherwise no answer came (the
        /// server was killed, or refused the connection) and it may or may not have applied.
        var acknowledged: Bool
    }

    struct WriterOutcome: Sendable {
        var writes: [Write] = []
        /// Answers with status 5xx.
        var serverErrors: [String] = []
        /// Other answers that were not a success (a 4xx, a per-record error).
        var refusals: [String] = []
    }

    struct ReaderOutcome: Sendable {
        /// The record names of each page followed, in order, and the token after each.
        var pages: [[String]] = []
        var tokens: [String] = []
        /// Pages after which a token was kept for the playback afterwards.
        var checkpoints: [Int] = []
        var serverErrors: [String] = []
    }

    struct Outcome: Sendable {
        var writers: [WriterOutcome]
        var readers: [ReaderOutcome]
        var seconds: Double
        var restartFailure: String?
    }

    var totalRequests: Int { writers * requestsPerWriter }

    func run() async throws -> Outcome {
        let completed = Locked(0)
        let writersDone = Locked(0)
        let restart = Locked<Task<String?, Never>?>(nil)
        let started = ContinuousClock.now
        let readerCount = readers
        async let readerOutcomes = withThrowingTaskGroup(of: ReaderOutcome.self) { group in
            for reader in 0..<readerCount {
                group.addTask { try await follow(reader, completed: completed, writersDone: writersDone) }
            }
            var all: [ReaderOutcome] = []
            for try await outcome in group { all.append(outcome) }
            return all
        }
        let writerOutcomes = await withTaskGroup(of: WriterOutcome.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    defer { writersDone.update { $0 += 1 } }
                    return await write(writer, completed: completed, restart: restart)
                }
            }
            var all: [WriterOutcome] = []
            for await outcome in group { all.append(outcome) }
            return all
        }
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        let followed = try await readerOutcomes
        let restartFailure = await restart.value?.value
        return Outcome(writers: writerOutcomes, readers: followed, seconds: seconds, restartFailure: restartFailure)
    }

    private func write(_ writer: Int, completed: Locked<Int>, restart: Locked<Task<String?, Never>?>) async -> WriterOutcome {
        var outcome = WriterOutcome()
        var previous: (name: String, tag: String)?
        for step in 0..<requestsPerWriter {
            let name = "w\(writer)-\(step)"
            var operations = [TeamServers.operation("create", name: name, fields: ["writer": "\(writer)", "step": "\(step)", "version": "0"])]
            if let previous { operations.append(TeamServers.operation("update", name: previous.name, tag: previous.tag, fields: ["version": "1"])) }
            let body = #"{"zoneID": {"zoneName": "\#(team.zone)"}, "atomic": true, "operations": [\#(operations.joined(separator: ", "))]}"#
            var write = Write(name: name, updated: previous?.name, acknowledged: false)
            previous = nil
            do {
                let reply = try await team.call(writer + step, "records/modify", body)
                let saved = reply.records.filter { $0["serverErrorCode"] == nil }
                if reply.status >= 500 {
                    outcome.serverErrors.append("\(name): \(reply.status) \(reply.text.prefix(300))")
                } else if reply.status != 200 || saved.count != operations.count {
                    outcome.refusals.append("\(name): \(reply.status) \(reply.text.prefix(300))")
                } else if let tag = saved.first(where: { $0["recordName"] as? String == name })?["recordChangeTag"] as? String {
                    write.acknowledged = true
                    previous = (name, tag)
                }
            } catch {
                // No answer: the next request starts a new chain rather than guess the tag.
            }
            outcome.writes.append(write)
            let done = completed.withLock { count in
                count += 1
                return count
            }
            if let killing, done == totalRequests / 3 {
                restart.set(Task { await Self.offload { () -> String? in
                    do {
                        try team.killAndRestart(killing)
                        return nil
                    } catch {
                        return "\(error)"
                    }
                } })
            }
        }
        return outcome
    }

    /// Follows the zone from no token to the end again and again until every writer is done
    /// (and once more after), from each server in turn; keeps a token at each checkpoint.
    private func follow(_ reader: Int, completed: Locked<Int>, writersDone: Locked<Int>) async throws -> ReaderOutcome {
        var outcome = ReaderOutcome()
        var token: String?
        var turn = reader
        var failuresInARow = 0
        while true {
            let finished = writersDone.value == writers
            var more = true
            var empty = false
            while more {
                turn += 1
                do {
                    let reply = try await team.changes(turn, since: token, limit: 200)
                    if reply.status >= 500 { outcome.serverErrors.append("\(reply.status) \(reply.text.prefix(300))") }
                    guard reply.status == 200, let zone = reply.zones.first, let next = zone["syncToken"] as? String else {
                        throw TeamServerFailure("changes/zone answered \(reply.status): \(reply.text.prefix(300))")
                    }
                    let names = (zone["records"] as? [[String: Any]] ?? []).compactMap { $0["recordName"] as? String }
                    outcome.pages.append(names)
                    outcome.tokens.append(next)
                    token = next
                    more = zone["moreComing"] as? Bool ?? false
                    empty = names.isEmpty
                    failuresInARow = 0
                } catch {
                    // A killed server: the same token again, from the next server. Bounded.
                    failuresInARow += 1
                    if failuresInARow > 300 { throw TeamServerFailure("reader \(reader) failed \(failuresInARow) times in a row: \(error)") }
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
            let due = (outcome.checkpoints.count + 1) * totalRequests / (checkpoints + 1)
            if outcome.checkpoints.count < checkpoints, completed.value >= due, !outcome.pages.isEmpty {
                outcome.checkpoints.append(outcome.pages.count - 1)
            }
            if finished { return outcome }
            // Caught up: let the writers get ahead rather than ask again at once.
            if empty { try await Task.sleep(for: .milliseconds(20)) }
        }
    }

    /// Runs blocking work (killing and starting a process) on a thread of its own.
    private static func offload<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: work()) }
        }
    }
}

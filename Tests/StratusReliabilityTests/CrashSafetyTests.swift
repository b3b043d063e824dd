import Foundation
import StratusCloud
import StratusEngine
import StratusModel
import StratusSQLite
import StratusTestSupport
import Testing

/// Kills a writing `stratus` process with SIGKILL at random moments and checks, after each
/// kill, that nothing is half-written, lost or played back wrongly. Serialized, as it always
/// ran: its kills are timed from how long a writer takes.
@Suite(.serialized) struct CrashSafetyTests {
    /// What the store should hold: record name -> (batch, size, payload length).
    struct Expected: Equatable {
        var batch: Int64
        var size: Int64
        var payload: Int64
    }

    /// One atomic batch as the writer sends it (the CLI saves 400 records per transaction).
    enum Batch {
        case save(id: Int64, records: [(name: String, payload: Int)])
        case delete(id: Int64, names: [String])

        var id: Int64 {
            switch self {
            case .save(let id, _), .delete(let id, _): return id
            }
        }
    }

    struct Model {
        var records: [String: Expected] = [:]
        /// Names deleted, with the batch that deleted them (a name is never saved again).
        var deletedBy: [String: Int64] = [:]
        var lastBatch: Int64 = 0

        mutating func apply(_ batch: Batch) {
            switch batch {
            case .save(let id, let items):
                for item in items {
                    records[item.name] = Expected(batch: id, size: Int64(items.count), payload: Int64(item.payload))
                }
            case .delete(let id, let names):
                for name in names {
                    records[name] = nil
                    deletedBy[name] = id
                }
            }
            lastBatch = batch.id
        }
    }

    struct IssuedToken {
        var token: String
        var lastBatch: Int64
    }

    let zone = ZoneID(zoneName: "crash")
    let type = "Item"

    /// The failures recorded while the test runs (counted by its issue handler), so the rounds
    /// stop after the first one that failed.
    static let failures = Locked(0)

    @Test(.compactMapIssues { issue in
        if issue.isFailure { CrashSafetyTests.failures.update { $0 += 1 } }
        return issue
    })
    func sigkillDuringWritesLosesAndTearsNothing() throws {
        Self.failures.set(0)
        let folder = try TemporaryDirectory("stratus-crash")
        let store = folder.storePath
        var random = SeededGenerator(seed: testSeed("crash safety"))
        let kills = Int(ProcessInfo.processInfo.environment["STRATUS_CRASH_KILLS"] ?? "") ?? 50
        let started = Date()

        #expect(try StratusBinary.run(["zones", "create", zone.zoneName], store: store).status == 0)
        var model = Model()
        var nextName = 0
        var nextBatch: Int64 = 1
        var tokens: [IssuedToken] = []

        func makeSaveBatches(chunks: Int, lastChunkSize: Int) -> [Batch] {
            var batches: [Batch] = []
            var touched: Set<String> = []
            for chunk in 0..<chunks {
                let size = chunk == chunks - 1 ? lastChunkSize : CloudDatabase.maximumBatchSize
                var items: [(name: String, payload: Int)] = []
                // Some records of the batch overwrite live ones (all-keys), the rest are new.
                let live = model.records.keys.filter { !touched.contains($0) }.sorted()
                let updates = live.isEmpty ? 0 : Int.random(in: 0...min(size / 2, live.count), using: &random)
                for name in live.shuffled(using: &random).prefix(updates) {
                    touched.insert(name)
                    items.append((name, Int.random(in: 0...800, using: &random)))
                }
                while items.count < size {
                    nextName += 1
                    items.append(("r\(nextName)", Int.random(in: 0...800, using: &random)))
                }
                batches.append(.save(id: nextBatch, records: items))
                nextBatch += 1
            }
            return batches
        }

        func input(for batches: [Batch]) -> String {
            var lines: [String] = []
            for case .save(let id, let items) in batches {
                for item in items {
                    lines.append(#"{"recordName":"\#(item.name)","recordType":"\#(type)","fields":{"batch":{"value":\#(id),"type":"INT64"},"size":{"value":\#(items.count),"type":"INT64"},"payload":{"value":"\#(String(repeating: "x", count: item.payload))","type":"STRING"}}}"#)
                }
            }
            return lines.joined(separator: "\n")
        }

        /// Starts the writer for `batches`; kills it after `delay` unless it finished. True when killed.
        func runWriter(_ batches: [Batch], killAfter delay: Double?) throws -> (killed: Bool, outcome: String) {
            var arguments: [String]
            if case .delete(_, let names) = batches[0] {
                arguments = ["delete", "--atomic", "--zone", zone.zoneName] + names
            } else {
                let file = folder.path("batch.jsonl")
                try input(for: batches).write(toFile: file, atomically: false, encoding: .utf8)
                arguments = ["save", file, "--atomic", "--policy", "all-keys", "--zone", zone.zoneName]
            }
            let process = StratusBinary.process(arguments, store: store)
            let errorFile = folder.path("writer.err")
            _ = FileManager.default.createFile(atPath: errorFile, contents: nil)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorFile))
            process.standardInput = FileHandle.nullDevice
            try process.run()
            if let delay {
                let deadline = Date().addingTimeInterval(delay)
                while process.isRunning, Date() < deadline { usleep(200) }
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            }
            process.waitUntilExit()
            let errors = (try? String(contentsOfFile: errorFile, encoding: .utf8)) ?? ""
            if process.terminationReason == .uncaughtSignal {
                #expect(process.terminationStatus == SIGKILL, "the writer died of signal \(process.terminationStatus): \(errors)")
                return (true, errors)
            }
            #expect(process.terminationStatus == 0, "the writer failed: \(errors)")
            return (false, errors)
        }

        /// The store as it is: name -> expected shape, read through queries.
        func observe() throws -> [String: Expected] {
            let database = try Store(path: store).database(.private)
            var state: [String: Expected] = [:]
            for record in try allRecords(database, type: type, zone: zone) {
                guard case .string(let payload)? = record["payload"] else { Issue.record("\(record.recordName) lacks its payload"); continue }
                #expect(state[record.recordName] == nil, "query returned \(record.recordName) twice")
                state[record.recordName] = Expected(batch: record.int("batch") ?? -1, size: record.int("size") ?? -1,
                                                    payload: Int64(payload.utf8.count))
            }
            return state
        }

        // First runs, not killed, seed the store and measure how long a writer takes: its
        // start, then each record. Kills then land anywhere from before the store is opened
        // to after the last commit.
        var clock = Date()
        #expect(try StratusBinary.run(["token", "--zone", zone.zoneName], store: store).status == 0)
        let startTime = Date().timeIntervalSince(clock)
        let seedBatches = makeSaveBatches(chunks: 1, lastChunkSize: 300)
        clock = Date()
        #expect(try !runWriter(seedBatches, killAfter: nil).killed)
        let recordTime = max(Date().timeIntervalSince(clock) - startTime, 0.001) / 300
        seedBatches.forEach { model.apply($0) }
        #expect(try observe() == model.records)

        var stats = (killedBeforeCommit: 0, killedBetweenBatches: 0, killedAfterAll: 0, finished: 0, tornBatches: 0)
        var checkedTokens = 0
        // Rounds go on until `kills` writers were killed (some finish before their kill lands).
        var killCount = 0
        var round = 0
        // The writer's speed was measured once; on a machine whose load changes it can speed up,
        // and every kill would come after its writer ended. Each writer that ends before its kill
        // brings the next kills sooner; each kill lets them drift back.
        var pace = 1.0
        while killCount < kills, round < kills * 3 {
            round += 1
            // A token handed out now, while nothing writes, stands for exactly the model's state.
            let tokenOutcome = try StratusBinary.run(["token", "--zone", zone.zoneName], store: store)
            #expect(tokenOutcome.status == 0, "\(tokenOutcome.stderr)")
            tokens.append(IssuedToken(token: tokenOutcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines), lastBatch: model.lastBatch))

            let batches: [Batch]
            if round % 5 == 0 || model.records.count > 1500 {
                let most = model.records.count > 1500 ? 300 : 30
                let names = model.records.keys.sorted().shuffled(using: &random).prefix(Int.random(in: 1...most, using: &random))
                batches = [.delete(id: nextBatch, names: Array(names))]
                nextBatch += 1
            } else {
                // One round in four sends more than 400 records: two transactions in one process.
                let two = Int.random(in: 0..<4, using: &random) == 0
                batches = makeSaveBatches(chunks: two ? 2 : 1, lastChunkSize: Int.random(in: 1...(two ? 60 : 150), using: &random))
            }
            var count = 0
            for batch in batches {
                switch batch {
                case .save(_, let items): count += items.count
                case .delete(_, let names): count += names.count
                }
            }
            // A third of the kills fall anywhere from the start (often before the store is open),
            // the rest while records are being parsed and written.
            let delay = pace * (Int.random(in: 0..<3, using: &random) == 0
                ? Double.random(in: 0...startTime, using: &random)
                : startTime * 0.7 + Double.random(in: 0...(recordTime * Double(count) * 1.1), using: &random))
            let (killed, errors) = try runWriter(batches, killAfter: delay)
            if killed { killCount += 1 }
            pace = killed ? min(1, pace * 1.05) : pace * 0.8

            // 1. The store opens and SQLite finds nothing wrong in it.
            #expect(try integrityCheck(store) == "ok", "round \(round)")
            let state = try observe()

            // 2. What is there is the state after a whole number of batches: none torn, none lost.
            var candidate = model
            var matched: Int?
            if candidate.records == state { matched = 0 }
            for (index, batch) in batches.enumerated() where matched == nil {
                candidate.apply(batch)
                if candidate.records == state { matched = index + 1 }
            }
            guard let committed = matched else {
                stats.tornBatches += 1
                let last = batches.last!.id
                let partial = state.values.filter { $0.batch == last }.count
                Issue.record("round \(round): the store matches no whole number of batches (killed: \(killed), \(partial) records of batch \(last) present). \(errors)")
                break
            }
            if !killed { #expect(committed == batches.count, "round \(round): the writer finished but not every batch is there") }
            for batch in batches.prefix(committed) { model.apply(batch) }
            // Said directly: the batches that did not commit left nothing, and the last one that
            // did is all there (each of its records carries its number and its size).
            for batch in batches.dropFirst(committed) {
                #expect(!state.values.contains { $0.batch == batch.id }, "round \(round): batch \(batch.id) is partly there")
            }
            if committed > 0, case .save(let id, let items) = batches[committed - 1] {
                let present = state.values.filter { $0.batch == id }
                #expect(present.count == items.count, "round \(round): batch \(id) is partly there")
                #expect(present.allSatisfy { $0.size == Int64(items.count) })
            }
            switch (killed, committed) {
            case (false, _): stats.finished += 1
            case (true, 0): stats.killedBeforeCommit += 1
            case (true, batches.count): stats.killedAfterAll += 1
            default: stats.killedBetweenBatches += 1
            }

            // 3. Playback from the beginning gives exactly the records present, each once.
            let database = try Store(path: store).database(.private)
            let fromStart = try playBack(database, zone: zone, since: nil)
            #expect(Set(fromStart.changed.map(\.recordName)) == Set(state.keys), "round \(round): playback from the start")
            #expect(fromStart.changed.count == state.count, "round \(round): a record played back twice")
            for record in fromStart.changed {
                #expect(record.int("batch") == state[record.recordName]?.batch, "round \(round): \(record.recordName) played back stale")
            }
            #expect(Set(fromStart.deleted) == Set(model.deletedBy.keys), "round \(round): deletions played back")

            // 4. Tokens handed out before the kill play back exactly what changed after them.
            var picks = Array(tokens.suffix(3))
            if tokens.count > 3 { picks.append(tokens[Int.random(in: 0..<(tokens.count - 3), using: &random)]) }
            for issued in picks {
                let since = try playBack(database, zone: zone, since: issued.token, pageSize: Int.random(in: 1...500, using: &random))
                let expectedChanged = Set(state.filter { $0.value.batch > issued.lastBatch }.keys)
                let expectedDeleted = Set(model.deletedBy.filter { $0.value > issued.lastBatch }.keys)
                #expect(Set(since.changed.map(\.recordName)) == expectedChanged, "round \(round): playback since the token of batch \(issued.lastBatch)")
                #expect(since.changed.count == expectedChanged.count, "round \(round): a change played back twice")
                #expect(Set(since.deleted) == expectedDeleted, "round \(round): deletions since the token of batch \(issued.lastBatch)")
                checkedTokens += 1
            }
            if Self.failures.value > 0 { break }
        }
        // The real binary agrees: playback through the CLI lists every record present.
        let cli = try StratusBinary.json(["changes", "--zone", zone.zoneName, "--no-keys"], store: store)
        let listed = (cli["records"] as? [[String: Any]] ?? []).filter { $0["deleted"] == nil }.compactMap { $0["recordName"] as? String }
        #expect(Set(listed) == Set(model.records.keys))

        let seconds = Date().timeIntervalSince(started)
        print("crash safety: \(killCount) kills in \(round) rounds in \(String(format: "%.1f", seconds)) s (writer start \(Int(startTime * 1000)) ms, \(String(format: "%.2f", recordTime * 1000)) ms a record); killed before any commit \(stats.killedBeforeCommit), between batches \(stats.killedBetweenBatches), after the last commit \(stats.killedAfterAll), finished \(stats.finished); \(model.records.count) records, \(model.deletedBy.count) deleted, \(checkedTokens) token playbacks checked")
        #expect(stats.tornBatches == 0)
        #expect(killCount >= kills, "too few writers were killed")
    }
}

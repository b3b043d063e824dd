import Foundation
import StratusCloud
import StratusEngine
import StratusModel
import StratusTestSupport
import Testing

/// The suite's bounded crash soak (`scripts/crash-soak` is the long one): atomic saves, line
/// imports and bulk writes (`demo`) killed with SIGKILL at random moments, stores made anew
/// every few rounds so many first writes go into an empty store (in place, under a rollback
/// journal). After each round, as a user would look: playback from no token in pages of 400 and
/// a query of every record agree on each record, its change tag and its fields; the store is
/// the state before the round plus a whole number of its transactions; a second playback from
/// the final token is empty; SQLite finds nothing wrong. Bounded by kills, never by time.
@Suite(.serialized) struct KilledWritersSoakTests {
    let zone = ZoneID(zoneName: "Bulk")
    let type = "Item"
    let demoRecords = 300

    /// What a record carries: the writer run that wrote it and its batch in that run.
    struct Written: Equatable {
        var run: Int64
        var batch: Int64
    }

    /// One transaction of a round: saves (a batch of a save, or a whole import) or deletes.
    enum Step {
        case save(names: [String], run: Int64, batch: Int64)
        case delete(names: [String])
    }

    struct Model: Equatable {
        var records: [String: Written] = [:]
        var deleted: Set<String> = []

        func applying(_ step: Step) -> Model {
            var next = self
            switch step {
            case .save(let names, let run, let batch):
                for name in names {
                    next.records[name] = Written(run: run, batch: batch)
                    next.deleted.remove(name)
                }
            case .delete(let names):
                for name in names {
                    next.records[name] = nil
                    next.deleted.insert(name)
                }
            }
            return next
        }
    }

    @Test func killedSavesImportsAndBulkWritesLeaveWholeTransactions() throws {
        let kills = Int(ProcessInfo.processInfo.environment["STRATUS_SOAK_KILLS"] ?? "") ?? 30
        var random = SeededGenerator(seed: testSeed("killed writers soak"))
        let folder = try TemporaryDirectory("stratus-soak")
        // Only a guard against a hang: the soak is bounded by its kills.
        let hangGuard = Date().addingTimeInterval(1800)
        let demo = try demoReference(folder)
        var killCount = 0, rounds = 0, storeNumber = 0, run: Int64 = 0
        var took: [String: Double] = ["save": 0.5, "import": 0.5, "demo": 1.5]
        let startup = try measureStartup(folder)

        /// Runs a writer, killed after a random delay unless it ends first; true when killed.
        func runWriter(_ arguments: [String], store: String, kind: String) throws -> Bool {
            let delay = Int.random(in: 0..<4, using: &random) == 0
                ? Double.random(in: 0...startup, using: &random)
                : startup * 0.8 + Double.random(in: 0...max(took[kind]! - startup * 0.8, 0.05) * 1.15, using: &random)
            let started = Date()
            let process = StratusBinary.process(arguments, store: store)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let deadline = Date().addingTimeInterval(delay)
            while process.isRunning, Date() < deadline { usleep(200) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            if process.terminationReason == .uncaughtSignal {
                #expect(process.terminationStatus == SIGKILL, "the \(kind) writer died of signal \(process.terminationStatus)")
                took[kind]! *= 1.08
                return true
            }
            #expect(process.terminationStatus == 0, "the \(kind) writer failed")
            took[kind] = 0.7 * took[kind]! + 0.3 * Date().timeIntervalSince(started)
            return false
        }

        while killCount < kills, rounds < kills * 4 {
            guard Date() < hangGuard else {
                Issue.record("hang guard: the soak ran 30 minutes with \(killCount) of \(kills) kills done; a writer or a check seems stuck (this is not a speed requirement)")
                break
            }
            storeNumber += 1
            let store = folder.path("store-\(storeNumber).sqlite")
            var model = Model()
            // The store's first write goes into an empty store: in place.
            if storeNumber % 2 == 1 {
                rounds += 1
                let killed = try runWriter(["demo", "--records", "\(demoRecords)", "--no-ui"], store: store, kind: "demo")
                if killed { killCount += 1 }
                try checkDemo(store, reference: demo, killed: killed, round: rounds)
            }
            #expect(try StratusBinary.run(["zones", "create", zone.zoneName], store: store).status == 0)
            for index in 0..<6 where killCount < kills {
                rounds += 1
                run += 1
                let importing = index == 0 || Int.random(in: 0..<3, using: &random) == 0
                let (arguments, steps) = try importing
                    ? importRound(run: run, folder: folder, random: &random)
                    : saveRound(run: run, model: model, folder: folder, random: &random)
                let killed = try runWriter(arguments, store: store, kind: importing ? "import" : "save")
                if killed { killCount += 1 }
                guard let next = try check(store, before: model, steps: steps, killed: killed, round: rounds) else { return }
                model = next
            }
        }
        print("killed writers soak: \(killCount) kills in \(rounds) rounds, \(storeNumber) stores")
        #expect(killCount >= kills, "too few writers were killed: \(killCount) in \(rounds) rounds")
    }

    // MARK: - Writers

    func line(_ name: String, run: Int64, batch: Int64, importing: Bool, random: inout SeededGenerator) -> String {
        let zonePart = importing ? #","zoneID":{"zoneName":"\#(zone.zoneName)"}"# : ""
        return #"{"recordName":"\#(name)","recordType":"\#(type)"\#(zonePart),"fields":{"run":{"value":\#(run),"type":"INT64"},"batch":{"value":\#(batch),"type":"INT64"},"payload":{"value":"\#(String(repeating: "x", count: Int.random(in: 0...300, using: &random)))","type":"STRING"}}}"#
    }

    /// `save --atomic --policy all-keys` of one to three batches of 400 (the last shorter),
    /// over live records and new names alike.
    func saveRound(run: Int64, model: Model, folder: TemporaryDirectory, random: inout SeededGenerator) throws -> ([String], [Step]) {
        let count = 400 * Int.random(in: 0...2, using: &random) + Int.random(in: 1...400, using: &random)
        let names = Array((0..<3000).map { "r\($0)" }.shuffled(using: &random).prefix(count))
        var steps: [Step] = [], lines: [String] = []
        for (batch, start) in stride(from: 0, to: names.count, by: 400).enumerated() {
            let chunk = Array(names[start..<min(start + 400, names.count)])
            steps.append(.save(names: chunk, run: run, batch: Int64(batch)))
            lines += chunk.map { line($0, run: run, batch: Int64(batch), importing: false, random: &random) }
        }
        let file = try folder.write(Data(lines.joined(separator: "\n").utf8), to: "save.jsonl")
        return (["save", file.path, "--atomic", "--policy", "all-keys", "--zone", zone.zoneName], steps)
    }

    /// `save --import` of up to 2,000 lines: one transaction.
    func importRound(run: Int64, folder: TemporaryDirectory, random: inout SeededGenerator) throws -> ([String], [Step]) {
        let names = Array((0..<3000).map { "r\($0)" }.shuffled(using: &random).prefix(Int.random(in: 50...2000, using: &random)))
        let lines = names.map { line($0, run: run, batch: -1, importing: true, random: &random) }
        let file = try folder.write(Data(lines.joined(separator: "\n").utf8), to: "import.jsonl")
        return (["save", "--import", file.path, "--zone", zone.zoneName], [.save(names: names, run: run, batch: -1)])
    }

    // MARK: - Checks

    /// How long a process takes to start and read a little, as the load is now.
    func measureStartup(_ folder: TemporaryDirectory) throws -> Double {
        let store = folder.path("startup.sqlite")
        #expect(try StratusBinary.run(["zones", "create", zone.zoneName], store: store).status == 0)
        let started = Date()
        for _ in 0..<3 { _ = try StratusBinary.run(["token", "--zone", zone.zoneName], store: store) }
        return Date().timeIntervalSince(started) / 3
    }

    /// The zone as playback (pages of 400) and a query of every record both show it, after
    /// checking they agree; nil when the zone does not exist.
    func observe(_ store: String, zone: ZoneID, types: Set<String>, round: Int) throws -> (records: [String: Record], deleted: Set<String>)? {
        let database = try Store(path: store).database(.private)
        guard try database.allRecordZones().contains(where: { $0.zoneID == zone }) else { return nil }
        let played = try playBack(database, zone: zone, since: nil, pageSize: 400)
        let records = Dictionary(played.changed.map { ($0.recordName, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(records.count == played.changed.count, "round \(round): playback of \(zone.zoneName) lists a record twice")
        var queried: [String: Record] = [:]
        let known = try Set(database.store.recordTypes().map(\.name))
        for name in types.union(records.values.map(\.recordType)).intersection(known).sorted() {
            for record in try allRecords(database, type: name, zone: zone) {
                #expect(queried.updateValue(record, forKey: record.recordName) == nil, "round \(round): query lists \(record.recordName) twice")
            }
        }
        #expect(Set(records.keys) == Set(queried.keys),
                "round \(round): playback (\(records.count)) and query (\(queried.count)) of \(zone.zoneName) disagree: only played back \(Set(records.keys).subtracting(queried.keys).sorted().prefix(5)), only queried \(Set(queried.keys).subtracting(records.keys).sorted().prefix(5))")
        for (name, record) in records {
            guard let other = queried[name] else { continue }
            #expect(record.recordChangeTag == other.recordChangeTag && record.fields == other.fields, "round \(round): \(name) played back and queried differently")
        }
        let again = try playBack(database, zone: zone, since: played.token, pageSize: 400)
        #expect(again.changed.isEmpty && again.deleted.isEmpty, "round \(round): a second playback from the final token is not empty")
        return (records, Set(played.deleted))
    }

    /// The store after a round: the state before it plus its first `n` steps, all of them
    /// when the writer was not killed. Returns the new model, or nil after a failure.
    func check(_ store: String, before: Model, steps: [Step], killed: Bool, round: Int) throws -> Model? {
        let observed = try observe(store, zone: zone, types: [type], round: round)
        #expect(try integrityCheck(store) == "ok", "round \(round)")
        var state = Model()
        for (name, record) in observed?.records ?? [:] {
            state.records[name] = Written(run: record.int("run") ?? -99, batch: record.int("batch") ?? -99)
        }
        state.deleted = observed?.deleted ?? []
        var candidate = before
        var matched = candidate == state ? 0 : nil
        for (index, step) in steps.enumerated() where matched == nil {
            candidate = candidate.applying(step)
            if candidate == state { matched = index + 1 }
        }
        guard let committed = matched else {
            let torn = steps.enumerated().compactMap { index, step -> String? in
                guard case .save(let names, let run, let batch) = step else { return nil }
                let there = names.filter { state.records[$0] == Written(run: run, batch: batch) }.count
                return there > 0 && there < names.count ? "step \(index): \(there) of \(names.count) records there" : nil
            }
            Issue.record("round \(round) (killed: \(killed)): the store is not the state after a whole number of its \(steps.count) transactions; \(torn.joined(separator: "; "))")
            return nil
        }
        if !killed { #expect(committed == steps.count, "round \(round): the writer finished but \(steps.count - committed) of its transactions are missing") }
        return candidate
    }

    /// Per demo zone: the names live and deleted when the demo has finished.
    func demoReference(_ folder: TemporaryDirectory) throws -> [ZoneID: (live: Set<String>, deleted: Set<String>)] {
        let path = folder.path("demo-reference.sqlite")
        #expect(try StratusBinary.run(["demo", "--records", "\(demoRecords)", "--no-ui"], store: path, timeout: .seconds(900)).status == 0)
        let database = try Store(path: path).database(.private)
        var reference: [ZoneID: (live: Set<String>, deleted: Set<String>)] = [:]
        for zone in try database.allRecordZones().map(\.zoneID) where !zone.isDefault {
            let played = try playBack(database, zone: zone, since: nil, pageSize: 400)
            reference[zone] = (Set(played.changed.map(\.recordName)), Set(played.deleted))
        }
        return reference
    }

    /// After a killed demo (a bulk write into an empty store): every demo zone is empty, filled
    /// (before its history of edits and deletions) or finished, and all in the same phase.
    func checkDemo(_ store: String, reference: [ZoneID: (live: Set<String>, deleted: Set<String>)], killed: Bool, round: Int) throws {
        guard FileManager.default.fileExists(atPath: store) else { return }
        let types = try Set(Store(path: store).recordTypes().map(\.name)).subtracting(["Users"])
        var phases: Set<String> = []
        for (zone, finished) in reference {
            let seen = try observe(store, zone: zone, types: types, round: round)
            let live = seen.map { Set($0.records.keys) } ?? [], deleted = seen?.deleted ?? []
            if live.isEmpty && deleted.isEmpty {
                phases.insert("empty")
            } else if live == finished.live.union(finished.deleted) && deleted.isEmpty {
                phases.insert("filled")
            } else if live == finished.live && deleted == finished.deleted {
                phases.insert("finished")
            } else {
                Issue.record("round \(round): demo zone \(zone.zoneName) is none of empty, filled or finished: \(live.count) live, \(deleted.count) deleted")
            }
        }
        #expect(phases.count <= 1, "round \(round): the demo's zones are in different phases: \(phases.sorted())")
        if !killed { #expect(phases == ["finished"], "round \(round): the demo finished but its zones are \(phases.sorted())") }
        #expect(try integrityCheck(store) == "ok", "round \(round)")
    }
}

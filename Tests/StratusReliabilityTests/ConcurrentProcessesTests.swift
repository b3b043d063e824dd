import Foundation
import StratusCloud
import StratusEngine
import StratusModel
import StratusSQLite
import StratusTestSupport
import Testing

/// Two writer processes and a reader process on one store at once: no busy or locked error
/// reaches the user, nothing saved goes missing, and playback sees every change exactly once.
/// Serialized: each test starts several `stratus` processes at once, so the two run one after
/// the other, as they always did.
@Suite(.serialized) struct ConcurrentProcessesTests {
    let zone = "multi"

    @Test func twoWritersAndAReaderShareOneStore() throws {
        let folder = try TemporaryDirectory("stratus-multi")
        let store = folder.storePath
        let zone = self.zone
        let inputs = folder.url.path
        let seconds = Double(ProcessInfo.processInfo.environment["STRATUS_MULTI_SECONDS"] ?? "") ?? 6
        #expect(try StratusBinary.run(["zones", "create", zone], store: store).status == 0)
        let deadline = Date().addingTimeInterval(seconds)

        /// Problems seen by any lane (a failed run, a busy message), reported at the end.
        let problems = Locked<[String]>([])
        @Sendable func check(_ outcome: ProcessOutcome, _ what: String) -> Bool {
            let lowered = outcome.stderr.lowercased()
            if outcome.status != 0 || lowered.contains("busy") || lowered.contains("locked") || !outcome.stderr.isEmpty {
                problems.update { $0.append("\(what): exit \(outcome.status): \(outcome.stderr)") }
                return false
            }
            return true
        }

        /// Final versions of what each writer saved, by record name.
        let saved = Locked<[String: Int64]>([:])

        /// A writer: one `stratus save` process after another until the deadline. Writer "b" also
        /// updates records it saved before, with a higher version.
        func writer(_ lane: String, seed: UInt64) -> @Sendable () -> Void {
            {
                var random = SeededGenerator(seed: seed)
                var versions: [String: Int64] = [:]
                var next = 0
                var run = 0
                while Date() < deadline {
                    run += 1
                    var lines: [String] = []
                    var batch: [String: Int64] = [:]
                    if lane == "b", !versions.isEmpty {
                        for name in versions.keys.sorted().shuffled(using: &random).prefix(Int.random(in: 0...10, using: &random)) {
                            batch[name] = versions[name]! + 1
                        }
                    }
                    for _ in 0..<Int.random(in: 1...30, using: &random) {
                        next += 1
                        batch["\(lane)\(next)"] = 1
                    }
                    for (name, version) in batch.sorted(by: { $0.key < $1.key }) {
                        lines.append(#"{"recordName":"\#(name)","recordType":"Item","fields":{"lane":{"value":"\#(lane)","type":"STRING"},"version":{"value":\#(version),"type":"INT64"},"run":{"value":\#(run),"type":"INT64"}}}"#)
                    }
                    let file = inputs + "/\(lane)-input.jsonl"
                    try? lines.joined(separator: "\n").write(toFile: file, atomically: false, encoding: .utf8)
                    let outcome: ProcessOutcome
                    do {
                        outcome = try StratusBinary.run(["save", file, "--zone", zone, "--policy", "all-keys", "--json"], store: store)
                    } catch {
                        problems.update { $0.append("writer \(lane) run \(run): could not start stratus: \(error)") }
                        continue
                    }
                    guard check(outcome, "writer \(lane) run \(run)") else { continue }
                    // Only what the writer's own output says was saved counts as saved.
                    let object = (try? JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8))) as? [String: Any]
                    for record in object?["records"] as? [[String: Any]] ?? [] {
                        guard record["serverErrorCode"] == nil, let name = record["recordName"] as? String else { continue }
                        versions[name] = batch[name]
                    }
                }
                saved.update { all in for (name, version) in versions { all[name] = version } }
            }
        }

        /// Versions of each record as playback delivered them, in order.
        let seen = Locked<[String: [Int64]]>([:])
        let readerToken = Locked<String?>(nil)
        let readerRounds = Locked(0)
        @Sendable func playBackOnce() {
            var arguments = ["changes", "--zone", zone, "--json"]
            if let token = readerToken.value { arguments += ["--since", token] }
            let outcome: ProcessOutcome
            do {
                outcome = try StratusBinary.run(arguments, store: store)
            } catch {
                problems.update { $0.append("reader changes: could not start stratus: \(error)") }
                return
            }
            guard check(outcome, "reader changes") else { return }
            guard let object = (try? JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8))) as? [String: Any],
                  let token = object["syncToken"] as? String else {
                problems.update { $0.append("reader: unreadable changes output \(outcome.stdout.prefix(200))") }
                return
            }
            seen.update { seen in
                for record in object["records"] as? [[String: Any]] ?? [] {
                    guard let name = record["recordName"] as? String else { continue }
                    let fields = record["fields"] as? [String: Any]
                    let version = ((fields?["version"] as? [String: Any])?["value"] as? NSNumber)?.int64Value ?? -1
                    seen[name, default: []].append(version)
                }
            }
            readerToken.set(token)
        }
        let reader: @Sendable () -> Void = {
            while Date() < deadline {
                playBackOnce()
                do {
                    let outcome = try StratusBinary.run(["query", "--type", "Item", "--zone", zone, "--all", "--limit", "50", "--json"], store: store)
                    // Before the first save the type does not exist yet: that is the one error allowed.
                    if !outcome.stderr.contains("Did not find record type") { _ = check(outcome, "reader query") }
                } catch {
                    problems.update { $0.append("reader query: could not start stratus: \(error)") }
                }
                readerRounds.update { $0 += 1 }
            }
        }

        let lanes = [writer("a", seed: 1), writer("b", seed: 2), reader]
        let finished = Locked(0)
        for lane in lanes {
            Thread {
                lane()
                finished.update { $0 += 1 }
            }.start()
        }
        while finished.value < lanes.count { usleep(10_000) }

        // Everything is written: one last playback catches up from the reader's token.
        playBackOnce()
        #expect(problems.value == [], "errors reached the user")

        let final = try Store(path: store).database(.private)
        let present = Dictionary(uniqueKeysWithValues: try allRecords(final, type: "Item", zone: ZoneID(zoneName: zone)).map { ($0.recordName, $0.int("version") ?? -1) })
        let savedNow = saved.value
        #expect(savedNow.count > 20, "the writers hardly ran")
        #expect(present == savedNow, "what the writers saved is what the store holds")

        let seenNow = seen.value
        #expect(Set(seenNow.keys) == Set(savedNow.keys), "playback saw every saved record")
        for (name, versions) in seenNow {
            // Each change once: versions only go up, and the last one seen is the final one.
            #expect(versions == versions.sorted(), "\(name) played back out of order: \(versions)")
            #expect(Set(versions).count == versions.count, "\(name) played back twice at one version: \(versions)")
            #expect(versions.last == savedNow[name], "\(name) last played back at \(versions) but is at \(savedNow[name] ?? -1)")
        }
        let updates = savedNow.values.filter { $0 > 1 }.count
        print("several processes: \(savedNow.count) records saved by two writers (\(updates) updated), \(readerRounds.value) reader rounds, \(seenNow.values.map(\.count).reduce(0, +)) changes played back")
    }

    /// Several processes making the same new store at the same moment: each opens it (the
    /// migrations run once), and every zone they make is there. Regression: the later
    /// process failed with "table store_info already exists".
    @Test func processesMakingANewStoreAtOnce() throws {
        for round in 1...8 {
            let folder = try TemporaryDirectory("stratus-race")
            let store = folder.storePath
            let outcomes = Locked<[Int: ProcessOutcome]>([:])
            let failures = Locked<[String]>([])
            let done = Locked(0)
            for lane in 1...5 {
                Thread {
                    do {
                        let outcome = try StratusBinary.run(["zones", "create", "z\(lane)"], store: store)
                        outcomes.update { $0[lane] = outcome }
                    } catch {
                        failures.update { $0.append("round \(round), process \(lane): could not start stratus: \(error)") }
                    }
                    done.update { $0 += 1 }
                }.start()
            }
            while done.value < 5 { usleep(5_000) }
            #expect(failures.value == [])
            #expect(outcomes.value.count == 5, "round \(round): every process ran")
            for (lane, outcome) in outcomes.value.sorted(by: { $0.key < $1.key }) {
                #expect(outcome.status == 0, "round \(round), process \(lane): \(outcome.stderr)")
            }
            let zones = try Store(path: store).database(.private).allRecordZones().map(\.zoneID.zoneName)
            #expect(zones.sorted() == ["_defaultZone", "z1", "z2", "z3", "z4", "z5"], "round \(round)")
            #expect(try integrityCheck(store) == "ok")
        }
    }
}

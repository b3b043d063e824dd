import Foundation
import Testing

@Suite struct BenchCommandTests {
    @Test func benchRunsEveryWorkloadOnASmallStore() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        let outcome = try cli.run(["bench", "--records", "1000", "--runs", "1", "--json", "--store", cli.directory.appendingPathComponent("bench").path], store: false)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        #expect(object["records"] as? Int == 1000)
        let workloads = try #require(object["workloads"] as? [[String: Any]])
        let names = workloads.compactMap { $0["name"] as? String }
        #expect(names.first == "save")
        #expect(names.contains("query-tokens") && names.contains("playback-full") && names.contains("current-token"))
        // Save is measured against SQLite alone writing the same rows in the same transactions,
        // the hand-made baseline beside it; save and import say how many bytes they wrote.
        let save = try #require(workloads.first { $0["name"] as? String == "save" })
        #expect((save["floor_records_per_s"] as? Double ?? 0) > 0, "\(save)")
        #expect((save["handmade_baseline_ms"] as? Double ?? 0) > 0, "\(save)")
        for workload in [save, try #require(workloads.first { $0["name"] as? String == "import" })] {
            #expect((workload["store_bytes"] as? Double ?? 0) > 0, "\(workload)")
            #expect((workload["bytes_written"] as? Double ?? -1) >= 0, "\(workload)")
            #expect(workload["written_ratio"] is Double, "\(workload)")
        }
        // Export and import move every record: both sides report a rate, and nothing is left behind.
        for name in ["export", "import"] {
            let workload = try #require(workloads.first { $0["name"] as? String == name })
            #expect((workload["stratus_records_per_s"] as? Double ?? 0) > 0, "\(workload)")
            #expect((workload["baseline_records_per_s"] as? Double ?? 0) > 0, "\(workload)")
        }
        // The dashboard counts the whole result and reaches its last record.
        for name in ["dashboard-last-page", "dashboard-count"] {
            let workload = try #require(workloads.first { $0["name"] as? String == name }, "\(name) missing")
            #expect(workload["matches"] as? Double == 1000, "\(workload)")
            #expect((workload["baseline_ms"] as? Double ?? -1) >= 0, "\(workload)")
        }
        // The indexes count the type and a range as SQLite's count(*) does.
        for name in ["count-type", "count-filtered"] {
            let workload = try #require(workloads.first { $0["name"] as? String == name }, "\(name) missing")
            #expect((workload["matches"] as? Double ?? 0) > 0, "\(workload)")
            #expect((workload["baseline_ms"] as? Double ?? -1) >= 0, "\(workload)")
        }
        // The two-sort page reports what SQLite alone pays to read the group it starts in.
        let otherSort = try #require(workloads.first { $0["name"] as? String == "query-filter-other-sort" })
        let groupRows = try #require(otherSort["range-two-sorts_first_layout_floor_rows"] as? Double, "\(otherSort)")
        #expect(groupRows > 0 && groupRows < 1000, "a group, not the store: \(otherSort)")
        #expect((otherSort["range-two-sorts_first_layout_floor_ms"] as? Double ?? 0) > 0, "\(otherSort)")
        let left = try FileManager.default.contentsOfDirectory(atPath: cli.directory.appendingPathComponent("bench").path)
        #expect(Set(left).isSubset(of: ["stratus.sqlite", "baseline.sqlite", "bench.json", "stratus.sqlite-wal", "stratus.sqlite-shm",
                                        "baseline.sqlite-wal", "baseline.sqlite-shm"]), "\(left)")
        for workload in workloads {
            #expect((workload["stratus_ms"] as? Double ?? -1) >= 0, "\(workload)")
            let name = workload["name"] as? String ?? ""
            // The query, cursor, fetch and playback workloads count rows on both sides: a missing count fails.
            guard name.hasPrefix("query-") || name.hasPrefix("cursor-") || name.hasPrefix("playback-after") || name == "fetch-100" else { continue }
            let stratusRows = try #require(workload["stratus_rows"] as? Double, "\(name) reports no stratus_rows")
            let baselineRows = try #require(workload["baseline_rows"] as? Double, "\(name) reports no baseline_rows")
            if name != "fetch-100" {
                #expect(stratusRows == baselineRows, "\(name) returned different rows")
            }
        }
        // The pull over loopback brings every record of the bench zone, as the copy in process does.
        let pull = try #require(workloads.first { $0["name"] as? String == "pull" })
        #expect(pull["records"] as? Double == 1000, "\(pull)")
        #expect((pull["baseline_ms"] as? Double ?? 0) > 0, "\(pull)")
        // Remote mode's client answers the page the engine answers in process.
        for (name, rows) in [("remote-query-page", 1...100), ("remote-playback", 200...200)] {
            let workload = try #require(workloads.first { $0["name"] as? String == name }, "\(name) missing")
            let remoteRows = Int(workload["stratus_rows"] as? Double ?? 0)
            #expect(rows.contains(remoteRows), "\(workload)")
            #expect(workload["baseline_rows"] as? Double == Double(remoteRows), "\(workload)")
            #expect((workload["baseline_ms"] as? Double ?? 0) > 0 && (workload["ratio"] as? Double ?? 0) > 0, "\(workload)")
            // The server's own time comes from its request log: less than the whole round trip.
            let server = workload["server_ms"] as? Double ?? 0
            #expect(server > 0 && server < (workload["stratus_ms"] as? Double ?? 0), "\(workload)")
            #expect((workload["over_server"] as? Double ?? 0) > 1, "\(workload)")
            // The round trip taken apart: the same request's exchange alone, above the server's
            // time, and its answer read back alone (the bench checks it holds the same records).
            #expect((workload["exchange_ms"] as? Double ?? 0) > 0 && (workload["exchange_server_ms"] as? Double ?? 0) > 0, "\(workload)")
            #expect((workload["read_ms"] as? Double ?? 0) > 0, "\(workload)")
            #expect((workload["answer_bytes"] as? Double ?? 0) > Double(remoteRows) * 50, "\(workload)")
        }
        #expect(try cli.run(["bench", "--workload", "nope"], store: false).status == 2)
    }
}

@Suite struct ServeBenchCommandTests {
    @Test func theServeWorkloadsAnswerEveryRequest() throws {
        let cli = try StratusCLI()
        defer { cli.remove() }
        let names = ["serve-lookup", "serve-query", "serve-modify", "serve-modify-200", "serve-changes"]
        let outcome = try cli.run(["bench", "--records", "1000", "--runs", "1", "--json"] + names.flatMap { ["--workload", $0] }
                                  + ["--store", cli.directory.appendingPathComponent("bench").path], store: false)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        let workloads = try #require(object["workloads"] as? [[String: Any]])
        for name in names {
            let workload = try #require(workloads.first { $0["name"] as? String == name }, "\(name) missing")
            #expect(workload["failed_requests"] as? Double == 0, "\(workload)")
            #expect(workload["failed_in_process"] as? Double == 0, "\(workload)")
            #expect((workload["requests_per_s"] as? Double ?? 0) > 0, "\(workload)")
            #expect((workload["http_p99_ms"] as? Double ?? 0) >= (workload["http_p50_ms"] as? Double ?? 1), "\(workload)")
            // The server's CPU per request against what the engine and the HTTP stack's floor
            // (a request no route answers) need, measured with the client in a process of its own.
            let engine = try #require(workload["engine_cpu_ms"] as? Double, "\(workload)")
            let floor = try #require(workload["floor_cpu_ms"] as? Double, "\(workload)")
            #expect(engine > 0 && floor > 0, "\(workload)")
            #expect((workload["floor_requests_per_s"] as? Double ?? 0) > 0, "\(workload)")
            let baseline = try #require(workload["baseline_ms"] as? Double)
            #expect(abs(baseline - (engine + floor)) < 1e-9, "\(workload)")
            // Beside it, the floor with SQLite writing the answer's records as JSON added: for
            // the reads only (a modify's answer holds what the request sent).
            let stratus = try #require(workload["stratus_ms"] as? Double)
            if name.hasPrefix("serve-modify") {
                #expect(workload["json_floor_ms"] == nil, "\(workload)")
            } else {
                let json = try #require(workload["json_floor_ms"] as? Double, "\(workload)")
                let ratio = try #require(workload["ratio_with_json_floor"] as? Double, "\(workload)")
                #expect(abs(ratio - stratus / (engine + floor + json)) < 1e-9, "\(workload)")
            }
        }
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StratusEngine
import StratusModel
import StratusServer
import StratusCloud

/// The CKWS server on loopback under several keep-alive connections from a lean client in a
/// process of its own (``LoadClient``, run as `stratus bench-load`), beside the same engine
/// calls made in process, and beside the HTTP stack's own floor (a request that no route
/// answers).
///
/// The ratio is of CPU per request, the server's own (this process's CPU while the client
/// runs, divided by the requests): what serving a request costs against what the engine and
/// the HTTP stack alone need, `engine CPU per call + floor CPU per request`.
struct ServeBench {
    let store: Store
    let zoneID: ZoneID
    let recordCount: Int
    let clients = 4
    let requestsPerClient: Int

    static let container = "iCloud.stratus.bench"
    /// Where `serve-modify` and `serve-modify-200` save.
    static let writesZone = "ServeWrites"
    /// The records of a `serve-changes` page.
    static let changesPage = 200

    /// `baseline`: the same venues on hand-made tables, whose database writes the answer's
    /// records as JSON for the JSON floor.
    func measure(_ workload: BenchWorkload, baseline: any BenchBaseline) throws -> BenchResult {
        let apiToken = try store.makeAPIToken(container: Self.container)
        let webToken = try store.makeWebAuthToken(container: Self.container, user: store.owner)
        let database = store.database(.private)
        let names = (0..<10).map { "v\(($0 * 97) % max(recordCount, 1))" }
        let body: String
        let operation: String
        let local: @Sendable (Int) throws -> Void
        switch workload {
        case .serveLookup:
            operation = "records/lookup"
            body = #"{"zoneID": {"zoneName": "Bench"}, "records": [\#(names.map { #"{"recordName": "\#($0)"}"# }.joined(separator: ","))]}"#
            local = { _ in _ = try database.records(for: names.map { RecordID(recordName: $0, zoneID: zoneID) }) }
        case .serveQuery:
            operation = "records/query"
            body = #"{"zoneID": {"zoneName": "Bench"}, "resultsLimit": 100, "query": {"recordType": "Venue", "filterBy": [{"comparator": "EQUALS", "fieldName": "category", "fieldValue": {"value": "museum"}}]}}"#
            local = { _ in _ = try database.records(matching: Query(recordType: "Venue", predicateFormat: "category == %@", arguments: [.value(.string("museum"))]),
                                                    inZoneWith: zoneID, resultsLimit: 100) }
        case .serveChanges:
            operation = "changes/zone"
            body = #"{"zones": [{"zoneID": {"zoneName": "Bench"}, "resultsLimit": \#(Self.changesPage)}]}"#
            local = { _ in _ = try database.recordZoneChanges(inZoneWith: zoneID, resultsLimit: Self.changesPage) }
        default:
            // Saves go to a zone of their own, record names reused every 50 steps: the venues
            // the other workloads read stay as built, however often the bench runs.
            operation = "records/modify"
            let writes = ZoneID(zoneName: Self.writesZone)
            try database.modifyRecordZones(saving: [writes])
            let count = workload == .serveModify200 ? 200 : 1
            let operations = (0..<count).map { index in
                #"{"operationType": "forceUpdate", "record": {"recordName": "serve-{client}-{slot}-\#(index)", "recordType": "Venue", "fields": {"title": {"value": "step {step}"}, "price": {"value": {step}}}}}"#
            }
            body = #"{"zoneID": {"zoneName": "\#(Self.writesZone)"}, "atomic": false, "operations": [\#(operations.joined(separator: ","))]}"#
            local = { step in
                let records = (0..<count).map { index in
                    var record = Record(recordType: "Venue", recordID: RecordID(recordName: "serve-local-\(step / 1000)-\(step % 50)-\(index)", zoneID: writes))
                    record["title"] = .string("step \(step)")
                    record["price"] = .int64(Int64(step))
                    return record
                }
                _ = try database.modifyRecords(saving: records, savePolicy: .changedKeys)
            }
        }
        // In process: the same engine calls from as many threads at once as there are clients.
        let perThread = Box<[[Double]]>(Array(repeating: [], count: clients))
        let failed = Box<Int>(0)
        let steps = requestsPerClient, clients = self.clients
        let engineCPU = ProcessCPU.measure {
            DispatchQueue.concurrentPerform(iterations: clients) { client in
                var times: [Double] = []
                for step in 0..<steps {
                    let start = DispatchTime.now().uptimeNanoseconds
                    do { try local(client * 1000 + step) } catch { failed.value += 1 }
                    times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
                }
                perThread.value[client] = times
            }
        }
        let inProcess = perThread.value.flatMap { $0 }
        let calls = Double(inProcess.count)
        let query = "?ckAPIToken=\(apiToken)&ckWebAuthToken=\(webToken)"
        let served = try serve([
            (path: "/database/1/\(Self.container)/development/private/\(operation)" + query, body: body),
            // No route answers it: what the HTTP stack costs a request on its own.
            (path: "/bench-floor", body: "{}"),
        ])
        let (http, floor) = (served[0], served[1])
        let requests = Double(http.outcome.latencies.count), floorRequests = Double(floor.outcome.latencies.count)
        let serverPerRequest = http.cpuSeconds * 1000 / requests
        let enginePerCall = engineCPU * 1000 / calls
        let floorPerRequest = floor.cpuSeconds * 1000 / floorRequests
        var jsonFloor: [(String, Double)] = []
        if let read = Self.answerRead(workload, names: names) {
            let json = try Self.answerCost(read, on: baseline)
            jsonFloor = [("json_floor_ms", json), ("ratio_with_json_floor", serverPerRequest / (enginePerCall + floorPerRequest + json))]
        }
        let sorted = http.outcome.latencies.sorted()
        func percentile(_ values: [Double], _ p: Double) -> Double { values.isEmpty ? 0 : values[min(values.count - 1, Int(Double(values.count) * p))] }
        return BenchResult(name: workload.rawValue, stratusMilliseconds: serverPerRequest, baselineMilliseconds: enginePerCall + floorPerRequest,
                           extras: [("engine_cpu_ms", enginePerCall), ("floor_cpu_ms", floorPerRequest),
                                    ("http_p50_ms", percentile(sorted, 0.5)), ("http_p99_ms", percentile(sorted, 0.99)),
                                    ("in_process_p50_ms", percentile(inProcess.sorted(), 0.5)),
                                    ("requests_per_s", requests / http.outcome.seconds), ("floor_requests_per_s", floorRequests / floor.outcome.seconds),
                                    ("clients", Double(clients)),
                                    ("failed_requests", Double(http.outcome.latencies.count - (http.outcome.statuses[200] ?? 0))),
                                    ("failed_in_process", Double(failed.value))] + jsonFloor)
    }

    /// The baseline's read of the records a workload's answer carries (nil: a modify, whose
    /// answer holds what the request sent).
    private static func answerRead(_ workload: BenchWorkload, names: [String]) -> BaselineRead? {
        switch workload {
        case .serveLookup: .names(names)
        case .serveQuery: .category("museum")
        case .serveChanges: .changes(afterSequence: 0, limit: changesPage)
        default: nil
        }
    }

    /// What writing the answer's records as JSON costs the baseline's database, in milliseconds:
    /// the median of writing them less the median of reading them, each over many runs.
    private static func answerCost(_ read: BaselineRead, on baseline: any BenchBaseline) throws -> Double {
        let runs = 200
        let answer = try BenchMeasurement.times(runs: runs) { _ = try baseline.answer(read) }
        let rows = try BenchMeasurement.times(runs: runs) { _ = try baseline.rows(read) }
        return max(0, BenchMeasurement.median(answer) - BenchMeasurement.median(rows))
    }

    /// Serves the store on a free loopback port and runs the load client against it once per
    /// target, in turn, each with this process's CPU time while it ran.
    private func serve(_ targets: [(path: String, body: String)]) throws -> [(outcome: LoadClient.Outcome, cpuSeconds: Double)] {
        let server = CKWSServer(configuration: .init(port: 0, source: .opened(store, container: nil)))
        let outcome = Box<Result<[(outcome: LoadClient.Outcome, cpuSeconds: Double)], any Error>>(.success([]))
        let done = DispatchSemaphore(value: 0)
        let clients = self.clients, requests = requestsPerClient
        let serving = Task { try await server.run { port in
            Task.detached {
                outcome.value = Result {
                    try targets.map { target in
                        var result: LoadClient.Outcome?
                        let seconds = try ProcessCPU.measure {
                            result = try LoadProcess.run(LoadClient.Plan(port: port, path: target.path, bodyTemplate: target.body,
                                                                         connections: clients, requests: requests))
                        }
                        return (result!, seconds)
                    }
                }
                await server.shutDown()
            }
        } }
        Task { _ = try? await serving.value; done.signal() }
        done.wait()
        return try outcome.value.get()
    }
}

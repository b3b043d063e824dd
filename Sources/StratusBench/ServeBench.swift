import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StratusEngine
import StratusModel
import StratusServer
import StratusCloud

/// The CKWS server on loopback with several clients at once, beside the same engine calls made
/// in process: what HTTP and JSON add to a lookup of 10 records, a query page of 100 and a save.
struct ServeBench {
    let store: Store
    let zoneID: ZoneID
    let recordCount: Int
    let clients = 4
    let requestsPerClient: Int

    static let container = "iCloud.stratus.bench"

    /// Median milliseconds over HTTP (the Stratus side) and in process (the baseline side), with
    /// p50/p99 latency and requests per second of the HTTP side.
    func measure(_ workload: BenchWorkload) throws -> BenchResult {
        let apiToken = try store.makeAPIToken(container: Self.container)
        let webToken = try store.makeWebAuthToken(container: Self.container, user: store.owner)
        let database = store.database(.private)
        let names = (0..<10).map { "v\(($0 * 97) % max(recordCount, 1))" }
        let body: @Sendable (Int, Int) -> String
        let operation: String
        let local: @Sendable (Int) throws -> Void
        switch workload {
        case .serveLookup:
            operation = "records/lookup"
            body = { _, _ in #"{"zoneID": {"zoneName": "Bench"}, "records": [\#(names.map { #"{"recordName": "\#($0)"}"# }.joined(separator: ","))]}"# }
            local = { _ in _ = try database.records(for: names.map { RecordID(recordName: $0, zoneID: zoneID) }) }
        case .serveQuery:
            operation = "records/query"
            body = { _, _ in #"{"zoneID": {"zoneName": "Bench"}, "resultsLimit": 100, "query": {"recordType": "Venue", "filterBy": [{"comparator": "EQUALS", "fieldName": "category", "fieldValue": {"value": "museum"}}]}}"# }
            local = { _ in _ = try database.records(matching: Query(recordType: "Venue", predicateFormat: "category == %@", arguments: [.value(.string("museum"))]),
                                                    inZoneWith: zoneID, resultsLimit: 100) }
        default:
            operation = "records/modify"
            body = { client, step in #"{"zoneID": {"zoneName": "Bench"}, "atomic": false, "operations": [{"operationType": "forceUpdate", "record": {"recordName": "serve-\#(client)-\#(step % 50)", "recordType": "Venue", "fields": {"title": {"value": "step \#(step)"}, "price": {"value": \#(step)}}}}]}"# }
            local = { step in
                var record = Record(recordType: "Venue", recordID: RecordID(recordName: "serve-local-\(step / 1000)-\(step % 50)", zoneID: zoneID))
                record["title"] = .string("step \(step)")
                record["price"] = .int64(Int64(step))
                _ = try database.modifyRecords(saving: [record], savePolicy: .changedKeys)
            }
        }
        // In process: the same engine calls from as many threads at once as there are clients.
        let perThread = Box<[[Double]]>(Array(repeating: [], count: clients))
        let failed = Box<Int>(0)
        let steps = requestsPerClient
        DispatchQueue.concurrentPerform(iterations: clients) { client in
            var times: [Double] = []
            for step in 0..<steps {
                let start = DispatchTime.now().uptimeNanoseconds
                do { try local(client * 1000 + step) } catch { failed.value += 1 }
                times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
            }
            perThread.value[client] = times
        }
        let inProcess = perThread.value.flatMap { $0 }
        let (latencies, seconds, failures) = try http(operation: operation, apiToken: apiToken, webToken: webToken, body: body)
        let sorted = latencies.sorted()
        func percentile(_ p: Double) -> Double { sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
        return BenchResult(name: workload.rawValue, stratusMilliseconds: BenchMeasurement.median(latencies),
                           baselineMilliseconds: BenchMeasurement.median(inProcess),
                           extras: [("http_p50_ms", percentile(0.5)), ("http_p99_ms", percentile(0.99)),
                                    ("in_process_p99_ms", inProcess.sorted()[min(inProcess.count - 1, Int(Double(inProcess.count) * 0.99))]),
                                    ("requests_per_s", Double(latencies.count) / seconds), ("clients", Double(clients)),
                                    ("failed_requests", Double(failures)), ("failed_in_process", Double(failed.value))])
    }

    /// Runs the server on a free loopback port and `clients` concurrent clients against it.
    private func http(operation: String, apiToken: String, webToken: String,
                      body: @escaping @Sendable (Int, Int) -> String) throws -> ([Double], Double, Int) {
        let server = CKWSServer(configuration: .init(port: 0, source: .opened(store, container: nil)))
        let outcome = Box<([Double], Double, Int)>(([], 0, 0))
        let done = DispatchSemaphore(value: 0)
        let clients = self.clients, perClient = requestsPerClient
        let serving = Task { try await server.run { port in
            Task {
                let url = URL(string: "http://127.0.0.1:\(port)/database/1/\(Self.container)/development/private/\(operation)?ckAPIToken=\(apiToken)&ckWebAuthToken=\(webToken)")!
                let session = URLSession(configuration: .ephemeral)
                let started = DispatchTime.now().uptimeNanoseconds
                let results = await withTaskGroup(of: ([Double], Int).self) { group in
                    for client in 0..<clients {
                        group.addTask {
                            var times: [Double] = [], failures = 0
                            for step in 0..<perClient {
                                var request = URLRequest(url: url)
                                request.httpMethod = "POST"
                                request.httpBody = Data(body(client, step).utf8)
                                let start = DispatchTime.now().uptimeNanoseconds
                                let status = ((try? await session.data(for: request))?.1 as? HTTPURLResponse)?.statusCode ?? 0
                                times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
                                if status != 200 { failures += 1 }
                            }
                            return (times, failures)
                        }
                    }
                    var all: [Double] = [], failures = 0
                    for await (times, failed) in group { all += times; failures += failed }
                    return (all, failures)
                }
                outcome.value = (results.0, Double(DispatchTime.now().uptimeNanoseconds - started) / 1_000_000_000, results.1)
                await server.shutDown()
            }
        } }
        Task { _ = try? await serving.value; done.signal() }
        done.wait()
        return outcome.value
    }
}

/// A value handed from the clients' task back to the waiting benchmark.
private final class Box<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.withLock { stored } }
        _modify {
            lock.lock()
            defer { lock.unlock() }
            yield &stored
        }
    }
}

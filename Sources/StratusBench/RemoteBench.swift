import Foundation
import StratusCloud
import StratusEngine
import StratusRemote
import StratusServer

/// One call of remote mode, end to end: the StratusRemote client (async-http-client, the CKWS
/// codec both ways) against the bench's store served on loopback in this process, beside the
/// same engine call made in process. The ratio at p50 is what a user of `--remote` or the
/// remote dashboard waits for above what the server's engine spends on the same answer;
/// `over_server` is the same wait over the server's own time for the request (from its request
/// log), which leaves out the engine and the answer's JSON: HTTP and the client's side.
struct RemoteBench {
    let store: Store
    let zoneID: ZoneID
    /// Timed calls on each side (after one untimed warm-up call).
    let calls: Int

    func measure(_ workload: BenchWorkload) throws -> BenchResult {
        let local = store.database(.private)
        let query = Query(recordType: "Venue", predicateFormat: "category == %@", arguments: [.value(.string("museum"))])
        let zoneID = self.zoneID
        let call: @Sendable (any CloudDatabaseService) throws -> Int
        let endpoint: String
        switch workload {
        case .remoteQueryPage:
            call = { try $0.records(matching: query, inZoneWith: zoneID, desiredKeys: nil, resultsLimit: 100).records.count }
            endpoint = "records/query"
        default:
            call = { try $0.recordZoneChanges(inZoneWith: zoneID, since: nil, resultsLimit: RemoteDatabase.batchLimit).changes.count }
            endpoint = "changes/zone"
        }
        var inProcessRows = 0
        let inProcess = try BenchMeasurement.times(runs: calls) { inProcessRows = try call(local) }
        let logBefore = try store.requestLog(limit: 1).last?.id ?? 0
        let (remote, remoteRows) = try overHTTP(call)
        let server = try serverTimes(of: endpoint, after: logBefore)
        guard remoteRows == inProcessRows else {
            throw CloudKitError(.internalError, "\(workload.rawValue): \(remoteRows) records over HTTP, \(inProcessRows) in process")
        }
        let remoteP50 = BenchMeasurement.median(remote), inProcessP50 = BenchMeasurement.median(inProcess)
        let serverP50 = BenchMeasurement.median(server)
        return BenchResult(name: workload.rawValue, stratusMilliseconds: remoteP50, baselineMilliseconds: inProcessP50,
                           extras: [("stratus_rows", Double(remoteRows)), ("baseline_rows", Double(inProcessRows)),
                                    ("remote_min_ms", remote.min() ?? 0), ("remote_max_ms", remote.max() ?? 0),
                                    ("in_process_min_ms", inProcess.min() ?? 0), ("in_process_max_ms", inProcess.max() ?? 0),
                                    ("server_ms", serverP50), ("server_min_ms", server.min() ?? 0), ("server_max_ms", server.max() ?? 0),
                                    ("over_server", serverP50 > 0 ? remoteP50 / serverP50 : 0), ("calls", Double(calls))])
    }

    /// The server's own milliseconds for each timed call to `endpoint`, from the request log
    /// entries after `id` (the warm-up call's left out). The log is written by the server as it
    /// stops; a short wait covers a flush still under way.
    private func serverTimes(of endpoint: String, after id: Int64) throws -> [Double] {
        var entries: [RequestLogEntry] = []
        for _ in 0..<50 {
            entries = try store.requestLog(after: id, limit: calls + 10).filter { $0.endpoint == endpoint && $0.status == 200 }
            if entries.count > calls { break }
            Thread.sleep(forTimeInterval: 0.04)
        }
        guard entries.count > calls else {
            throw CloudKitError(.internalError, "the server logged \(entries.count) \(endpoint) requests of \(calls + 1)")
        }
        return entries.dropFirst().map { Double($0.durationMicroseconds) / 1000 }
    }

    /// The call's milliseconds through the remote client against the store served on a free
    /// loopback port, and the records its last answer held.
    private func overHTTP(_ call: @escaping @Sendable (any CloudDatabaseService) throws -> Int) throws -> ([Double], Int) {
        let apiToken = try store.makeAPIToken(container: ServeBench.container)
        let webToken = try store.makeWebAuthToken(container: ServeBench.container, user: store.owner)
        let server = CKWSServer(configuration: .init(port: 0, source: .opened(store, container: nil)))
        let outcome = Box<Result<([Double], Int), any Error>>(.failure(CloudKitError(.internalError, "the server did not start")))
        let done = DispatchSemaphore(value: 0)
        let calls = self.calls
        let serving = Task { try await server.run { port in
            // The client blocks its thread on each request: a thread of its own, not one the server may need.
            Thread {
                outcome.value = Result {
                    let endpoint = RemoteEndpoint(url: "http://127.0.0.1:\(port)", container: ServeBench.container, environment: "development")
                    let client = CKWSClient(name: "bench", endpoint: endpoint, credentials: RemoteCredentials(apiToken: apiToken, webAuthToken: webToken))
                    let remote = RemoteCloudService(client: client).database(.private)
                    var rows = 0
                    let times = try BenchMeasurement.times(runs: calls) { rows = try call(remote) }
                    return (times, rows)
                }
                Task { await server.shutDown() }
            }.start()
        } }
        Task { _ = try? await serving.value; done.signal() }
        done.wait()
        return try outcome.value.get()
    }
}

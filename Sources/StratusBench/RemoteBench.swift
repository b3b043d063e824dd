import Foundation
import StratusCloud
import StratusEngine
import StratusRemote
import StratusServer

/// One call of remote mode, end to end: the StratusRemote client (async-http-client, the CKWS
/// codec both ways) against the bench's store served on loopback in this process, beside the
/// same engine call made in process. The ratio at p50 is what a user of `--remote` or the
/// remote dashboard waits for above what the server's engine spends on the same answer.
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
        switch workload {
        case .remoteQueryPage:
            call = { try $0.records(matching: query, inZoneWith: zoneID, desiredKeys: nil, resultsLimit: 100).records.count }
        default:
            call = { try $0.recordZoneChanges(inZoneWith: zoneID, since: nil, resultsLimit: RemoteDatabase.batchLimit).changes.count }
        }
        var inProcessRows = 0
        let inProcess = try BenchMeasurement.times(runs: calls) { inProcessRows = try call(local) }
        let (remote, remoteRows) = try overHTTP(call)
        guard remoteRows == inProcessRows else {
            throw CloudKitError(.internalError, "\(workload.rawValue): \(remoteRows) records over HTTP, \(inProcessRows) in process")
        }
        let remoteP50 = BenchMeasurement.median(remote), inProcessP50 = BenchMeasurement.median(inProcess)
        return BenchResult(name: workload.rawValue, stratusMilliseconds: remoteP50, baselineMilliseconds: inProcessP50,
                           extras: [("stratus_rows", Double(remoteRows)), ("baseline_rows", Double(inProcessRows)),
                                    ("remote_min_ms", remote.min() ?? 0), ("remote_max_ms", remote.max() ?? 0),
                                    ("in_process_min_ms", inProcess.min() ?? 0), ("in_process_max_ms", inProcess.max() ?? 0),
                                    ("calls", Double(calls))])
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

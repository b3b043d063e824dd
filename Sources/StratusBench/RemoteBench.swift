import Foundation
import StratusCKWS
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
        let request: RawRequest
        switch workload {
        case .remoteQueryPage:
            call = { try $0.records(matching: query, inZoneWith: zoneID, desiredKeys: nil, resultsLimit: 100).records.count }
            request = RawRequest.query(zoneID: zoneID)
        default:
            call = { try $0.recordZoneChanges(inZoneWith: zoneID, since: nil, resultsLimit: RemoteDatabase.batchLimit).changes.count }
            request = RawRequest.changes(zoneID: zoneID)
        }
        var inProcessRows = 0
        let inProcess = try BenchMeasurement.times(runs: calls) { inProcessRows = try call(local) }
        let logBefore = try store.requestLog(limit: 1).last?.id ?? 0
        let measured = try overHTTP(call, raw: request)
        let (server, rawServer) = try serverTimes(of: request.operation, after: logBefore)
        guard measured.rows == inProcessRows, measured.rawRows == inProcessRows else {
            throw CloudKitError(.internalError, "\(workload.rawValue): \(measured.rows) records over HTTP (\(measured.rawRows) in the raw answer), \(inProcessRows) in process")
        }
        let remote = measured.remote
        let remoteP50 = BenchMeasurement.median(remote), inProcessP50 = BenchMeasurement.median(inProcess)
        let serverP50 = BenchMeasurement.median(server)
        return BenchResult(name: workload.rawValue, stratusMilliseconds: remoteP50, baselineMilliseconds: inProcessP50,
                           extras: [("stratus_rows", Double(measured.rows)), ("baseline_rows", Double(inProcessRows)),
                                    ("remote_min_ms", remote.min() ?? 0), ("remote_max_ms", remote.max() ?? 0),
                                    ("in_process_min_ms", inProcess.min() ?? 0), ("in_process_max_ms", inProcess.max() ?? 0),
                                    ("server_ms", serverP50), ("server_min_ms", server.min() ?? 0), ("server_max_ms", server.max() ?? 0),
                                    ("over_server", serverP50 > 0 ? remoteP50 / serverP50 : 0),
                                    ("exchange_ms", BenchMeasurement.median(measured.exchange)),
                                    ("exchange_server_ms", BenchMeasurement.median(rawServer)),
                                    ("read_ms", BenchMeasurement.median(measured.read)),
                                    ("answer_bytes", Double(measured.answerBytes)), ("calls", Double(calls))])
    }

    /// The same request written by hand, for the round trip without the client's reading: its
    /// answer's bytes are sent for and read back as records apart, so the figure says what of
    /// a page is HTTP and what is making the records.
    struct RawRequest: Sendable {
        var operation: String
        var body: JSONValue
        var zoneID: ZoneID
        /// The answer's records, as the client reads them.
        var read: @Sendable ([UInt8], ZoneID) throws -> Int

        static func query(zoneID: ZoneID) -> RawRequest {
            let filter: JSONValue = .object([("comparator", .string("EQUALS")), ("fieldName", .string("category")),
                                             ("fieldValue", .object([("value", .string("museum")), ("type", .string("STRING"))]))])
            let body: JSONValue = .object([("zoneID", .object([("zoneName", .string(zoneID.zoneName))])),
                                           ("query", .object([("recordType", .string("Venue")), ("filterBy", .array([filter]))])),
                                           ("resultsLimit", .integer(100))])
            return RawRequest(operation: "records/query", body: body, zoneID: zoneID) { bytes, zoneID in
                try RecordsAnswer.decode(bytes, zoneID: zoneID).records?.count ?? 0
            }
        }

        static func changes(zoneID: ZoneID) -> RawRequest {
            let zone: JSONValue = .object([("zoneID", .object([("zoneName", .string(zoneID.zoneName))])),
                                           ("resultsLimit", .integer(Int64(RemoteDatabase.batchLimit)))])
            return RawRequest(operation: "changes/zone", body: .object([("zones", .array([zone]))]), zoneID: zoneID) { bytes, zoneID in
                try RecordsAnswer.decodeZones(bytes, zoneID: zoneID).reduce(0) { $0 + ($1.records?.count ?? 0) }
            }
        }
    }

    /// What ``overHTTP(_:raw:)`` measured: the client's calls, the hand-written request's
    /// exchanges, its answer read back, and the records of each.
    private struct OverHTTP: Sendable {
        var remote: [Double]
        var rows: Int
        var exchange: [Double]
        var read: [Double]
        var rawRows: Int
        var answerBytes: Int
    }

    /// The server's own milliseconds for each timed call to `endpoint` through the client, and
    /// for each of the hand-written request's, from the request log entries after `id` (each
    /// side's warm-up call left out). The log is written by the server as it stops; a short
    /// wait covers a flush still under way.
    private func serverTimes(of endpoint: String, after id: Int64) throws -> (client: [Double], raw: [Double]) {
        let side = calls + 1
        var entries: [RequestLogEntry] = []
        for _ in 0..<50 {
            entries = try store.requestLog(after: id, limit: 2 * side + 10).filter { $0.endpoint == endpoint && $0.status == 200 }
            if entries.count >= 2 * side { break }
            Thread.sleep(forTimeInterval: 0.04)
        }
        guard entries.count >= 2 * side else {
            throw CloudKitError(.internalError, "the server logged \(entries.count) \(endpoint) requests of \(2 * side)")
        }
        let milliseconds = entries.map { Double($0.durationMicroseconds) / 1000 }
        return (Array(milliseconds[1..<side]), Array(milliseconds[(side + 1)..<(2 * side)]))
    }

    /// The call's milliseconds through the remote client against the store served on a free
    /// loopback port, and the records its last answer held; then `raw`'s exchanges alone and
    /// its answer read alone.
    private func overHTTP(_ call: @escaping @Sendable (any CloudDatabaseService) throws -> Int, raw: RawRequest) throws -> OverHTTP {
        let apiToken = try store.makeAPIToken(container: ServeBench.container)
        let webToken = try store.makeWebAuthToken(container: ServeBench.container, user: store.owner)
        let server = CKWSServer(configuration: .init(port: 0, source: .opened(store, container: nil)))
        let outcome = Box<Result<OverHTTP, any Error>>(.failure(CloudKitError(.internalError, "the server did not start")))
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
                    var answer: [UInt8] = []
                    let exchange = try BenchMeasurement.times(runs: calls) { answer = try client.answerBody("private", raw.operation, body: raw.body) }
                    var rawRows = 0
                    let read = try BenchMeasurement.times(runs: calls) { rawRows = try raw.read(answer, raw.zoneID) }
                    return OverHTTP(remote: times, rows: rows, exchange: exchange, read: read, rawRows: rawRows, answerBytes: answer.count)
                }
                Task { await server.shutDown() }
            }.start()
        } }
        Task { _ = try? await serving.value; done.signal() }
        done.wait()
        return try outcome.value.get()
    }
}

import Foundation
import StratusCloud
import StratusEngine
import StratusRemote
import StratusServer
import StratusStores

/// `stratus pull` of the bench zone from the store served on loopback (in process) into a new
/// store, beside the same copy made in process: the zone's change pages read from the engine
/// and written into a new store through the same import path. The ratio is what CloudKit Web
/// Services (HTTP, JSON both ways, a request a page) adds to copying the records.
struct PullBench {
    let store: Store
    let zoneID: ZoneID
    let directory: URL

    func measure(_ workload: BenchWorkload) throws -> BenchResult {
        // The copies go when measured: the bench folder keeps only the stores it reuses.
        defer { for name in ["pulled.sqlite", "copied.sqlite"] { _ = try? PullBench.freshPath(name, in: directory) } }
        let inProcess = try copyInProcess()
        let apiToken = try store.makeAPIToken(container: ServeBench.container)
        let webToken = try store.makeWebAuthToken(container: ServeBench.container, user: store.owner)
        let server = CKWSServer(configuration: .init(port: 0, source: .opened(store, container: nil)))
        let outcome = Box<Result<(seconds: Double, tally: PullTally), any Error>>(.failure(CloudKitError(.internalError, "the server did not start")))
        let done = DispatchSemaphore(value: 0)
        let directory = self.directory, zone = zoneID.zoneName
        let serving = Task { try await server.run { port in
            // The pull blocks its thread on each request: a thread of its own, not one the server may need.
            Thread {
                outcome.value = Result {
                    let endpoint = RemoteEndpoint(url: "http://127.0.0.1:\(port)", container: ServeBench.container, environment: "development")
                    let client = CKWSClient(name: "bench", endpoint: endpoint, credentials: RemoteCredentials(apiToken: apiToken, webAuthToken: webToken))
                    guard let remote = RemoteCloudService(client: client).database(.private) as? RemoteDatabase else {
                        throw CloudKitError(.internalError, "the remote service has no CKWS database")
                    }
                    let path = try PullBench.freshPath("pulled.sqlite", in: directory)
                    let target = try StoreOpener.open(path, ifMissing: .create, creatingWith: .development)
                    let state = PullState(url: endpoint.url, container: endpoint.container, environment: endpoint.environment, storeID: target.storeID.uuidString)
                    var pull = ContainerPull(remote: remote, store: target, statePath: PullState.path(besides: path), state: state, includeAssets: true,
                                             onlyZone: zone, defaultZoneTypes: [], retry: .never, events: .silent)
                    let start = DispatchTime.now().uptimeNanoseconds
                    try pull.pullChanges()
                    return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000_000, pull.tally)
                }
                Task { await server.shutDown() }
            }.start()
        } }
        Task { _ = try? await serving.value; done.signal() }
        done.wait()
        let (seconds, tally) = try outcome.value.get()
        guard tally.recordsNew == inProcess.records else {
            throw CloudKitError(.internalError, "pull: \(tally.recordsNew) records came over HTTP, \(inProcess.records) in process")
        }
        return BenchResult(name: workload.rawValue, stratusMilliseconds: seconds * 1000, baselineMilliseconds: inProcess.seconds * 1000,
                           extras: [("records", Double(tally.recordsNew)), ("records_per_s", Double(tally.recordsNew) / seconds),
                                    ("in_process_records_per_s", Double(inProcess.records) / inProcess.seconds)])
    }

    /// The zone's change pages read from the engine, a page of 200 at a time as CKWS answers
    /// them, each written into a new store as a pull writes it.
    private func copyInProcess() throws -> (seconds: Double, records: Int) {
        let target = try StoreOpener.open(try PullBench.freshPath("copied.sqlite", in: directory), ifMissing: .create, creatingWith: .development)
        let source = store.database(.private), copy = target.database(.private)
        let start = DispatchTime.now().uptimeNanoseconds
        try copy.modifyRecordZones(saving: [zoneID])
        var token: String?
        var records = 0
        var page: ZoneChangesPage
        repeat {
            page = try source.recordZoneChanges(inZoneWith: zoneID, since: token, resultsLimit: RemoteDatabase.batchLimit)
            let changed = page.changes.compactMap { change -> Record? in if case .changed(let record) = change { return record } else { return nil } }
            try copy.importRecords(changed)
            records += changed.count
            token = page.changeToken
        } while page.moreComing
        return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000_000, records)
    }

    /// A path in the bench folder with nothing there (a store of an earlier run removed).
    static func freshPath(_ name: String, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent(name).path
        for suffix in ["", "-wal", "-shm", ".pull.json"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        return path
    }
}

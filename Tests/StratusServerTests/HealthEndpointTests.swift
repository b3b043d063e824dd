import Foundation
import StratusTestSupport
import Testing

/// `GET /health` of the real `stratus serve`, as a proxy calls it: no credentials, no data;
/// 200 while the store can be read, 503 while the server drains after SIGTERM (other requests
/// still answered) and when its PostgreSQL database is gone.
@Suite(.serialized) struct HealthEndpointTests {
    @Test func answers200WithoutCredentialsThen503WhileDrainingAfterSIGTERM() async throws {
        let folder = try TemporaryDirectory("stratus-health")
        defer { folder.remove() }
        let store = folder.storePath
        let apiToken = try StratusBinary.run(["auth", "api-token", "--container", "iCloud.health"], store: store).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let server = try ServedStore(store: store, arguments: ["--drain-seconds", "600"])
        defer { server.kill() }
        let port = try #require(server.port, "serve printed: \(server.firstLine)")
        let http = LoopbackHTTP()
        defer { Task { await http.shutdown() } }

        let healthy = try await http.send("http://127.0.0.1:\(port)/health")
        #expect(healthy.status == 200)
        #expect(healthy.text == #"{"status":"ok"}"#)
        #expect(try await http.send("http://127.0.0.1:\(port)/health", method: .HEAD).status == 200)
        let posted = try await http.send("http://127.0.0.1:\(port)/health", body: "{}")
        #expect(posted.status == 405, "\(posted.text)")

        server.stop()  // SIGTERM
        let draining = try await Poll.asyncUntil(timeout: .seconds(60), every: .milliseconds(20)) {
            try await http.send("http://127.0.0.1:\(port)/health").status == 503
        }
        #expect(draining, "/health never answered 503 after SIGTERM")
        #expect(try await http.send("http://127.0.0.1:\(port)/health").text == #"{"status":"draining"}"#)
        // Still serving while the proxy takes it out of rotation.
        let zones = try await http.send("http://127.0.0.1:\(port)/database/1/iCloud.health/development/public/zones/list?ckAPIToken=\(apiToken)")
        #expect(zones.status == 200, "\(zones.text)")
        #expect(server.process.isRunning)
    }

    @Test func aServerStopsAfterItsDrainPeriod() async throws {
        let folder = try TemporaryDirectory("stratus-health")
        defer { folder.remove() }
        let server = try ServedStore(store: folder.storePath, arguments: ["--drain-seconds", "1"])
        defer { server.kill() }
        server.stop()
        let stopped = try await Poll.asyncUntil(timeout: .seconds(60), every: .milliseconds(50)) { !server.process.isRunning }
        #expect(stopped, "serve did not stop after its drain period")
        #expect(server.process.terminationStatus == 0)
    }

    @Test func answers503WhenThePostgreSQLDatabaseIsGone() async throws {
        let cluster = try TestPostgres.Cluster.start()
        defer { cluster.stop() }
        let url = cluster.url + "?schema=health"
        let made = try StratusBinary.run(["zones", "create", "Notes"], store: url)
        try #require(made.status == 0, "\(made.stderr)")
        let server = try ServedStore(store: url)
        defer { server.stop() }
        // A server of a schema per container and environment, none opened yet.
        let folderServer = try ServedStore(stores: cluster.url)
        defer { folderServer.stop() }
        let http = LoopbackHTTP()
        defer { Task { await http.shutdown() } }
        let ports = [try #require(server.port, "serve printed: \(server.firstLine)"), try #require(folderServer.port, "serve printed: \(folderServer.firstLine)")]

        for port in ports {
            let up = try await http.send("http://127.0.0.1:\(port)/health")
            #expect(up.status == 200, "\(port): \(up.text)")
        }
        cluster.stop()
        for port in ports {
            let down = try await http.send("http://127.0.0.1:\(port)/health")
            #expect(down.status == 503)
            #expect(down.text == #"{"status":"store unreachable"}"#, "no word of the database's address or user: \(down.text)")
        }
        #expect(server.process.isRunning && folderServer.process.isRunning, "the servers outlive their database")
    }
}

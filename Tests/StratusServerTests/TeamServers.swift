import Foundation
import StratusTestSupport

/// Several `stratus serve` processes on one PostgreSQL store (a fresh schema of the tests'
/// server), as a team runs them behind a load balancer, with the tokens a signed-in client
/// needs and one zone to work in. A server can be killed (SIGKILL) and started again on its
/// port. ``stop()`` stops them all and drops the store.
final class TeamServers: @unchecked Sendable {
    static let container = "iCloud.team"
    let url: String
    let apiToken: String
    let webAuthToken: String
    let zone: String
    let ports: [Int]
    /// Made last in `init`: a client that is never shut down stops the test process.
    let http: LoopbackHTTP
    private let servers: Locked<[ServedStore]>

    init(count: Int, zone: String) throws {
        url = try TestPostgres.freshStoreURL()
        self.zone = zone
        let made = try StratusBinary.run(["zones", "create", zone], store: url)
        guard made.status == 0 else { throw TeamServerFailure("zones create: \(made.stderr)") }
        apiToken = try StratusBinary.run(["auth", "api-token", "--container", Self.container], store: url).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        webAuthToken = try StratusBinary.run(["auth", "login", "--container", Self.container], store: url).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let store = url
        let started = try (0..<count).map { _ in try ServedStore(store: store) }
        ports = try started.map { server in
            guard let port = server.port else { throw TeamServerFailure("serve printed: \(server.firstLine)") }
            return port
        }
        servers = Locked(started)
        http = LoopbackHTTP()
    }

    /// Kills server `index` with SIGKILL and starts it again on its port (blocking: run it off
    /// the cooperative threads).
    func killAndRestart(_ index: Int) throws {
        let killed = servers.value[index]
        killed.kill()
        let restarted = try ServedStore(store: url, port: ports[index])
        guard restarted.port == ports[index] else { throw TeamServerFailure("restart printed: \(restarted.firstLine)") }
        servers.update { $0[index] = restarted }
    }

    /// Stops every server (waiting for each to end) and drops the store.
    func stop() async {
        await http.shutdown()
        for server in servers.value {
            server.stop()
            server.process.waitUntilExit()
        }
        TestPostgres.drop(url)
    }

    /// Sends `body` to `OPERATION` of the private database on server `index`, signed in.
    func call(_ index: Int, _ operation: String, _ body: String) async throws -> LoopbackHTTP.Reply {
        let webToken = webAuthToken.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? webAuthToken
        let url = "http://127.0.0.1:\(ports[index % ports.count])/database/1/\(Self.container)/development/private/\(operation)"
            + "?ckAPIToken=\(apiToken)&ckWebAuthToken=\(webToken)"
        return try await http.send(url, body: body)
    }

    /// One page of the zone's changes after `token` (nil: from the start), from server `index`.
    func changes(_ index: Int, since token: String?, limit: Int) async throws -> LoopbackHTTP.Reply {
        let since = token.map { #", "syncToken": "\#($0)""# } ?? ""
        return try await call(index, "changes/zone", #"{"zones": [{"zoneID": {"zoneName": "\#(zone)"}\#(since), "resultsLimit": \#(limit)}]}"#)
    }

    /// A record of the CKWS JSON for `records/modify`: `fields` maps names to JSON values.
    static func operation(_ type: String, name: String, tag: String? = nil, fields: [String: String]) -> String {
        let tagMember = tag.map { #", "recordChangeTag": "\#($0)""# } ?? ""
        let fieldMembers = fields.sorted { $0.key < $1.key }.map { #""\#($0.key)": {"value": \#($0.value)}"# }.joined(separator: ", ")
        return #"{"operationType": "\#(type)", "record": {"recordName": "\#(name)", "recordType": "Item"\#(tagMember), "fields": {\#(fieldMembers)}}}"#
    }
}

/// A team test's setup went wrong.
struct TeamServerFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}

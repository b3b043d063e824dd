import Foundation
import StratusEngine
import StratusModel
import Testing

/// Eight clients at once send 8,000 mixed requests (bounded by count; a generous deadline only
/// guards against a hang, so a slow or busy machine passes as a fast one does): saves of
/// their own records, conflicting updates of shared ones, lookups, queries and change
/// playback. Nothing answers 5xx, nothing saved is lost, and playback gives every saved change
/// exactly once.
@Suite(.serialized) struct ServerLoadTests {
    static let clients = 8
    static let totalRequests = Int(ProcessInfo.processInfo.environment["STRATUS_LOAD_REQUESTS"] ?? "") ?? 8_000
    static let sharedNames = (0..<10).map { "shared-\($0)" }

    /// What one client saw.
    struct Outcome: Sendable {
        var requests = 0
        /// The steps of its script it reached (a step sends one or two requests).
        var steps = 0
        var serverErrors: [String] = []
        var conflicts = 0
        /// Record name -> the version this client last saved successfully.
        var saved: [String: Int] = [:]
        /// Shared record name -> every version any save of this client wrote.
        var sharedWrites: [String: Set<Int>] = [:]
        /// The playback this client followed with tokens (the reader only), and where it stopped.
        var played: [String: Int] = [:]
        var token: String?
    }

    @Test func eightClientsLoseNothingAndPlaybackIsExact() async throws {
        let server = try await ServerHarness()
        defer { Task { await server.stop() } }
        _ = try await server.call("private", "zones/modify", #"{"operations": [{"operationType": "create", "zone": {"zoneID": {"zoneName": "Load"}}}]}"#)
        let seed = Self.sharedNames.map { #"{"operationType": "forceUpdate", "record": {"recordName": "\#($0)", "recordType": "Item", "fields": {"version": {"value": 0}, "owner": {"value": "seed"}}}}"# }
        _ = try await server.call("private", "records/modify", #"{"zoneID": {"zoneName": "Load"}, "atomic": false, "operations": [\#(seed.joined(separator: ","))]}"#)
        // Not a speed target: only a server that stops answering takes this long.
        let hangGuard: TimeInterval = 1_800
        let deadline = Date().addingTimeInterval(hangGuard)
        let perClient = Self.totalRequests / Self.clients

        let outcomes = try await withThrowingTaskGroup(of: Outcome.self) { group in
            for client in 0..<Self.clients {
                group.addTask { try await Self.runClient(client, requests: perClient, server: server, deadline: deadline) }
            }
            var all: [Outcome] = []
            for try await outcome in group { all.append(outcome) }
            return all
        }

        let requests = outcomes.map(\.requests).reduce(0, +)
        let steps = outcomes.map(\.steps).reduce(0, +)
        #expect(steps == perClient * Self.clients,
                "hang guard: the clients reached only \(steps) of \(perClient * Self.clients) steps (\(requests) requests) in \(Int(hangGuard)) s; the server stopped answering")
        #expect(outcomes.flatMap(\.serverErrors).isEmpty, "\(outcomes.flatMap(\.serverErrors).prefix(5))")
        #expect(outcomes.map(\.conflicts).reduce(0, +) > 0, "no conflicting update happened; the test is not testing conflicts")

        // Full playback from no token: each record exactly once, in its final state.
        var played: [String: [String: Any]] = [:]
        var token: String? = nil
        var more = true
        while more {
            let body = token.map { #"{"zones": [{"zoneID": {"zoneName": "Load"}, "syncToken": "\#($0)", "resultsLimit": 400}]}"# }
                ?? #"{"zones": [{"zoneID": {"zoneName": "Load"}, "resultsLimit": 400}]}"#
            let page = try #require(try await server.call("private", "changes/zone", body).zones.first)
            for record in page["records"] as? [[String: Any]] ?? [] {
                let name = try #require(record["recordName"] as? String)
                #expect(played[name] == nil, "\(name) played back twice")
                played[name] = record
            }
            token = page["syncToken"] as? String
            more = page["moreComing"] as? Bool ?? false
        }
        func version(_ record: [String: Any]?) -> Int? {
            ((record?["fields"] as? [String: Any])?["version"] as? [String: Any])?["value"] as? Int
        }
        for outcome in outcomes {
            for (name, saved) in outcome.saved {
                #expect(version(played[name]) == saved, "\(name): saved at \(saved), played back at \(String(describing: version(played[name])))")
            }
        }
        let writes = outcomes.reduce(into: [String: Set<Int>]()) { all, outcome in all.merge(outcome.sharedWrites) { $0.union($1) } }
        for name in Self.sharedNames {
            let final = try #require(version(played[name]))
            #expect(final == 0 || writes[name, default: []].contains(final), "\(name) holds a version nobody saved")
        }
        // The reader followed the feed with tokens while it changed; caught up from where it
        // stopped, it has seen every record, each at its final version.
        var reader = try #require(outcomes.first { !$0.played.isEmpty })
        more = true
        while more {
            let body = reader.token.map { #"{"zones": [{"zoneID": {"zoneName": "Load"}, "syncToken": "\#($0)", "resultsLimit": 400}]}"# }
                ?? #"{"zones": [{"zoneID": {"zoneName": "Load"}, "resultsLimit": 400}]}"#
            let page = try #require(try await server.call("private", "changes/zone", body).zones.first)
            for record in page["records"] as? [[String: Any]] ?? [] {
                reader.played[record["recordName"] as? String ?? ""] = version(record)
            }
            reader.token = page["syncToken"] as? String
            more = page["moreComing"] as? Bool ?? false
        }
        #expect(Set(reader.played.keys) == Set(played.keys))
        for (name, record) in played { #expect(reader.played[name] == version(record), "\(name)") }
    }

    private static func runClient(_ client: Int, requests: Int, server: ServerHarness, deadline: Date) async throws -> Outcome {
        var outcome = Outcome()
        var random = SeededGenerator(seed: UInt64(client + 1) * 7919)
        var ownVersion = 0
        var token: String? = nil
        func check(_ reply: ServerHarness.Reply, _ what: String) {
            outcome.requests += 1
            if reply.status >= 500 { outcome.serverErrors.append("\(what): \(reply.status) \(reply.json)") }
        }
        for step in 0..<requests where Date() < deadline {
            outcome.steps += 1
            let roll = random.below(100)
            if client == 0 {
                // The reader: change playback with tokens, most of the time.
                let body = token.map { #"{"zones": [{"zoneID": {"zoneName": "Load"}, "syncToken": "\#($0)", "resultsLimit": 200}]}"# }
                    ?? #"{"zones": [{"zoneID": {"zoneName": "Load"}, "resultsLimit": 200}]}"#
                let reply = try await server.call("private", "changes/zone", body)
                check(reply, "changes/zone")
                if let page = reply.zones.first, let next = page["syncToken"] as? String {
                    for record in page["records"] as? [[String: Any]] ?? [] {
                        let name = record["recordName"] as? String ?? ""
                        outcome.played[name] = ((record["fields"] as? [String: Any])?["version"] as? [String: Any])?["value"] as? Int
                    }
                    token = next
                }
                continue
            }
            if roll < 40 {
                ownVersion += 1
                let name = "c\(client)-\(random.below(60))"
                let reply = try await server.call("private", "records/modify", #"{"zoneID": {"zoneName": "Load"}, "atomic": false, "operations": [{"operationType": "forceUpdate", "record": {"recordName": "\#(name)", "recordType": "Item", "fields": {"version": {"value": \#(ownVersion)}, "owner": {"value": "c\#(client)"}}}}]}"#)
                check(reply, "modify")
                if reply.records.first?["serverErrorCode"] == nil, reply.status == 200 { outcome.saved[name] = ownVersion }
            } else if roll < 55 {
                // Conflicting updates: read a shared record's tag, then update it with that tag.
                let name = sharedNames[random.below(sharedNames.count)]
                let looked = try await server.call("private", "records/lookup", #"{"zoneID": {"zoneName": "Load"}, "records": [{"recordName": "\#(name)"}]}"#)
                check(looked, "lookup")
                guard let tag = looked.records.first?["recordChangeTag"] as? String else { continue }
                let version = client * 1_000_000 + step
                let reply = try await server.call("private", "records/modify", #"{"zoneID": {"zoneName": "Load"}, "atomic": false, "operations": [{"operationType": "update", "record": {"recordName": "\#(name)", "recordType": "Item", "recordChangeTag": "\#(tag)", "fields": {"version": {"value": \#(version)}}}}]}"#)
                check(reply, "update")
                let code = reply.records.first?["serverErrorCode"] as? String
                if code == "CONFLICT" { outcome.conflicts += 1 } else if code == nil { outcome.sharedWrites[name, default: []].insert(version) }
            } else if roll < 80 {
                let reply = try await server.call("private", "records/lookup", #"{"zoneID": {"zoneName": "Load"}, "records": [{"recordName": "c\#(client)-\#(random.below(60))"}, {"recordName": "\#(sharedNames[random.below(10)])"}]}"#)
                check(reply, "lookup")
            } else {
                let reply = try await server.call("private", "records/query", #"{"zoneID": {"zoneName": "Load"}, "resultsLimit": 20, "query": {"recordType": "Item", "filterBy": [{"comparator": "EQUALS", "fieldName": "owner", "fieldValue": {"value": "c\#(client)"}}]}}"#)
                check(reply, "query")
            }
        }
        outcome.token = token
        return outcome
    }
}

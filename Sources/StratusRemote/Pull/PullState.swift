import Foundation
import StratusCKWS
import StratusCloud

/// Where a pulled store came from and how far each pull reached: the file `STORE.pull.json`
/// beside the store. It names the container (URL, container, environment) and the store
/// (its ID), and for each database pulled the database token and each zone's token.
///
/// A token is written only after what it covers is committed to the store, each write a new
/// file renamed over the old one. A pull stopped between the two (killed, signed out) starts
/// again from the older token and meets pages it already has: records whose change tag the
/// store already holds are left alone and deletions of absent records count as nothing, so
/// replaying is exact, neither duplicating nor losing.
public struct PullState: Sendable {
    public var url: String
    public var container: String
    public var environment: String
    public var storeID: String
    /// By database name (`private`, `shared`, `public`).
    public var databases: [String: DatabaseState] = [:]

    public init(url: String, container: String, environment: String, storeID: String) {
        self.url = url
        self.container = container
        self.environment = environment
        self.storeID = storeID
    }

    public struct DatabaseState: Sendable {
        /// The `changes/database` token every changed zone was pulled up to.
        var token: String?
        /// Each zone's `changes/zone` token, by ``ZoneKey``.
        var zones: [ZoneKey: String] = [:]
    }

    /// A zone as the remote names it: its name and owner.
    public struct ZoneKey: Hashable, Comparable, Sendable {
        var zoneName: String
        var ownerName: String

        public static func < (left: ZoneKey, right: ZoneKey) -> Bool { (left.ownerName, left.zoneName) < (right.ownerName, right.zoneName) }
    }

    /// The file beside `storePath`.
    public static func path(besides storePath: String) -> String { storePath + ".pull.json" }

    /// Whether this state is of `endpoint`'s container; nil when it is, else what differs.
    public func mismatch(with endpoint: RemoteEndpoint) -> String? {
        if container != endpoint.container { return "container \(container)" }
        if environment != endpoint.environment { return "the \(environment) environment of \(container)" }
        if url != endpoint.url { return "\(container) at \(url)" }
        return nil
    }

    /// Holds `STORE.pull.lock` until the process ends, so two pulls into one store cannot
    /// interleave their tokens; a second is refused at once.
    public static func lockForThisProcess(besides storePath: String) throws {
        let path = storePath + ".pull.lock"
        let descriptor = open(path, O_RDWR | O_CREAT, 0o644)
        guard descriptor >= 0 else { throw CloudKitError(.internalError, "cannot open \(path): \(String(cString: strerror(errno)))") }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw CloudKitError(.serverRejectedRequest, "another `stratus pull` into \(storePath) is running; wait for it to end")
        }
        // Left open: the lock goes with the process.
    }

    // MARK: File

    public static func read(_ path: String) throws -> PullState? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let json: JSONValue
        do {
            json = try JSONParser.parse(utf8: data)
        } catch {
            throw CloudKitError(.invalidArguments, "\(path) is not JSON (\(error)); it is where `stratus pull` keeps its tokens")
        }
        guard let url = json["url"]?.stringValue, let container = json["container"]?.stringValue,
              let environment = json["environment"]?.stringValue, let storeID = json["storeID"]?.stringValue else {
            throw CloudKitError(.invalidArguments, "\(path) lacks url, container, environment or storeID; it is not a pull's state")
        }
        var state = PullState(url: url, container: container, environment: environment, storeID: storeID)
        if case .object(let databases)? = json["databases"] {
            for (name, database) in databases {
                var entry = DatabaseState(token: database["token"]?.stringValue)
                if case .array(let zones)? = database["zones"] {
                    for zone in zones {
                        guard let zoneName = zone["zoneName"]?.stringValue, let owner = zone["ownerRecordName"]?.stringValue,
                              let token = zone["token"]?.stringValue else { continue }
                        entry.zones[ZoneKey(zoneName: zoneName, ownerName: owner)] = token
                    }
                }
                state.databases[name] = entry
            }
        }
        return state
    }

    var json: JSONValue {
        let databases: [(String, JSONValue)] = self.databases.keys.sorted().map { name in
            let database = self.databases[name]!
            var members: [(String, JSONValue)] = []
            if let token = database.token { members.append(("token", .string(token))) }
            members.append(("zones", .array(database.zones.keys.sorted().map { key in
                .object([("zoneName", .string(key.zoneName)), ("ownerRecordName", .string(key.ownerName)), ("token", .string(database.zones[key]!))])
            })))
            return (name, .object(members))
        }
        return .object([("url", .string(url)), ("container", .string(container)), ("environment", .string(environment)),
                        ("storeID", .string(storeID)), ("databases", .object(databases))])
    }

    /// Replaces the file whole (see ``JSONFile``): a reader sees the old state or the new.
    public func write(_ path: String) throws {
        try JSONFile.replace(path, with: json, mode: 0o644)
    }
}

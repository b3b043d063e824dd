import Foundation
import StratusCKWS
import StratusCloud

/// A named remote container, as `stratus remote add` records it (no secrets here).
public struct Remote: Sendable, Hashable {
    public var name: String
    public var endpoint: RemoteEndpoint

    public init(name: String, endpoint: RemoteEndpoint) {
        self.name = name
        self.endpoint = endpoint
    }
}

/// The user's remotes and their credentials, in the user's config folder
/// (`$XDG_CONFIG_HOME/stratus`, else `~/.config/stratus`): `remotes.json`, and
/// `credentials.json`, which only the user may read (0600, the folder 0700). Every write goes to
/// a new file that then replaces the old one, under a lock, so a reader never sees half a file
/// and two processes rotating tokens do not lose each other's.
public struct RemoteConfiguration: Sendable {
    public let folder: String

    public init(folder: String) {
        self.folder = folder
    }

    /// The folder from the environment, as the XDG rules say.
    public static func userFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let config = environment["XDG_CONFIG_HOME"], !config.isEmpty { return config + "/stratus" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.config/stratus"
    }

    var remotesPath: String { folder + "/remotes.json" }
    public var credentialsPath: String { folder + "/credentials.json" }

    // MARK: Remotes

    public func remotes() throws -> [Remote] {
        guard case .array(let items)? = try read(remotesPath)["remotes"] else { return [] }
        return items.compactMap { item in
            guard let name = item["name"]?.stringValue, let container = item["container"]?.stringValue,
                  let environment = item["environment"]?.stringValue else { return nil }
            return Remote(name: name, endpoint: RemoteEndpoint(url: item["url"]?.stringValue ?? RemoteEndpoint.appleURL,
                                                                container: container, environment: environment))
        }
    }

    public func remote(named name: String) throws -> Remote {
        guard let remote = try remotes().first(where: { $0.name == name }) else {
            let known = try remotes().map(\.name)
            throw CloudKitError(.unknownItem, "no remote named '\(name)'" + (known.isEmpty ? "" : "; the remotes are \(known.joined(separator: ", "))"),
                                reason: .unknownRemote(name))
        }
        return remote
    }

    public func add(_ remote: Remote) throws {
        try locked {
            var all = try remotes()
            guard !all.contains(where: { $0.name == remote.name }) else {
                throw CloudKitError(.constraintViolation, "a remote named '\(remote.name)' exists; `stratus remote remove \(remote.name)` first")
            }
            all.append(remote)
            try save(remotes: all)
        }
    }

    /// Forgets the remote and its credentials; false when there was none.
    @discardableResult
    public func remove(_ name: String) throws -> Bool {
        try locked {
            let all = try remotes()
            guard all.contains(where: { $0.name == name }) else { return false }
            try save(remotes: all.filter { $0.name != name })
            var credentials = try allCredentials()
            credentials[name] = nil
            try save(credentials: credentials)
            return true
        }
    }

    // MARK: Credentials

    public func credentials(of name: String) throws -> RemoteCredentials {
        try allCredentials()[name] ?? RemoteCredentials()
    }

    /// Changes one remote's credentials under the lock, from the newest file.
    public func updateCredentials(of name: String, _ change: (inout RemoteCredentials) throws -> Void) throws {
        try locked {
            var all = try allCredentials()
            var credentials = all[name] ?? RemoteCredentials()
            try change(&credentials)
            all[name] = credentials
            try save(credentials: all)
        }
    }

    private func allCredentials() throws -> [String: RemoteCredentials] {
        guard case .object(let members) = try read(credentialsPath) else { return [:] }
        var all: [String: RemoteCredentials] = [:]
        for (name, json) in members {
            all[name] = RemoteCredentials(apiToken: json["apiToken"]?.stringValue, webAuthToken: json["webAuthToken"]?.stringValue,
                                          keyID: json["keyID"]?.stringValue, privateKeyPEM: json["privateKeyPEM"]?.stringValue)
        }
        return all
    }

    // MARK: Files

    private func save(remotes: [Remote]) throws {
        let items: [JSONValue] = remotes.map { remote in
            .object([("name", .string(remote.name)), ("url", .string(remote.endpoint.url)), ("container", .string(remote.endpoint.container)),
                     ("environment", .string(remote.endpoint.environment))])
        }
        try replace(remotesPath, with: .object([("remotes", .array(items))]))
    }

    private func save(credentials: [String: RemoteCredentials]) throws {
        let members: [(String, JSONValue)] = credentials.keys.sorted().map { name in
            let credential = credentials[name]!
            let fields: [(String, String?)] = [("apiToken", credential.apiToken), ("webAuthToken", credential.webAuthToken),
                                               ("keyID", credential.keyID), ("privateKeyPEM", credential.privateKeyPEM)]
            return (name, .object(fields.compactMap { key, value in value.map { (key, .string($0)) } }))
        }
        try replace(credentialsPath, with: .object(members))
    }

    private func read(_ path: String) throws -> JSONValue {
        guard let data = FileManager.default.contents(atPath: path) else { return .object([]) }
        do {
            return try JSONParser.parse(utf8: data)
        } catch {
            throw CloudKitError(.invalidArguments, "\(path) is not JSON (\(error)); fix or remove it")
        }
    }

    /// Writes a new file readable only by the user (see ``JSONFile``).
    private func replace(_ path: String, with json: JSONValue) throws {
        try makeFolder()
        try JSONFile.replace(path, with: json, mode: 0o600)
    }

    private func makeFolder() throws {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw CloudKitError(.internalError, "cannot make \(folder): \(error.localizedDescription)")
        }
    }

    /// Runs `body` holding the folder's lock file, so read-change-write cycles of several
    /// processes do not interleave.
    private func locked<T>(_ body: () throws -> T) throws -> T {
        try makeFolder()
        let descriptor = open(folder + "/.lock", O_RDWR | O_CREAT, 0o600)
        guard descriptor >= 0 else { throw CloudKitError(.internalError, "cannot lock \(folder): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        flock(descriptor, LOCK_EX)
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }
}

/// Keeps a remote's rotated web auth token in its credentials file.
public struct CredentialsFileKeeper: SessionTokenKeeper {
    public let configuration: RemoteConfiguration
    public let remote: String

    public init(configuration: RemoteConfiguration, remote: String) {
        self.configuration = configuration
        self.remote = remote
    }

    public func keep(webAuthToken: String) throws {
        try configuration.updateCredentials(of: remote) { $0.webAuthToken = webAuthToken }
    }

    public func keptWebAuthToken() -> String? {
        try? configuration.credentials(of: remote).webAuthToken
    }
}

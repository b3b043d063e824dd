import ArgumentParser
import Foundation
import StratusCKWS
import StratusCloud
import StratusRemote

/// `stratus remote`: the CloudKit Web Services containers the data commands reach with
/// `--remote NAME`, and signing in to them.
struct RemoteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remote",
        abstract: "Name remote containers (iCloud, or another `stratus serve`) and sign in to them.",
        discussion: """
            Remotes live in $XDG_CONFIG_HOME/stratus (else ~/.config/stratus): remotes.json, and credentials.json, \
            which only you can read (mode 0600). Tokens are never taken on the command line's arguments except the \
            API token, and never printed in full. Every data command takes --remote NAME in place of --store.
            """,
        subcommands: [RemoteAddCommand.self, RemoteListCommand.self, RemoteShowCommand.self, RemoteRemoveCommand.self,
                      RemoteLoginCommand.self, RemoteKeyCommand.self]
    )

    /// The user's remotes.
    static var configurationFolder: RemoteConfiguration { RemoteConfiguration(folder: RemoteConfiguration.userFolder()) }

    /// Who may be named: letters, digits, '.', '-' and '_'.
    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) && $0.isASCII || "._-".unicodeScalars.contains($0) }
    }
}

struct RemoteAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Name a remote container.")

    @Argument(help: "The remote's name (letters, digits, '.', '-', '_').") var name: String
    @Option(help: "The container identifier, e.g. iCloud.com.example.app.") var container: String
    @Option(help: "development or production.") var environment: String
    @Option(help: "The CloudKit Web Services URL: Apple's, or a `stratus serve` (http://127.0.0.1:8765).") var url: String = RemoteEndpoint.appleURL

    func validate() throws {
        if !RemoteCommand.isValidName(name) { throw ValidationError("the remote's name '\(name)' may hold letters, digits, '.', '-' and '_' only") }
        if environment != "development" && environment != "production" {
            throw ValidationError("--environment must be development or production, not '\(environment)'")
        }
        guard let parsed = URLComponents(string: url), parsed.scheme == "https" || parsed.scheme == "http", parsed.host?.isEmpty == false,
              parsed.query == nil else {
            throw ValidationError("--url must be an http or https URL without a query, e.g. https://api.apple-cloudkit.com, not '\(url)'")
        }
        if container.isEmpty || container.contains("/") { throw ValidationError("--container must be a container identifier, not '\(container)'") }
    }

    func run() throws {
        try RemoteCommand.configurationFolder.add(Remote(name: name, endpoint: RemoteEndpoint(url: url, container: container, environment: environment)))
        Output.line("added \(name): \(container) (\(environment)) at \(RemoteEndpoint(url: url, container: container, environment: environment).url)")
        Output.line("sign in with `stratus remote login \(name) --api-token TOKEN`, or add a key with `stratus remote key \(name)`")
    }
}

struct RemoteListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the remotes and how each signs in.")
    @Flag(help: "Machine-readable JSON on standard output.") var json = false

    func run() throws {
        let folder = RemoteCommand.configurationFolder
        let remotes = try folder.remotes()
        if json {
            Output.json(.object([("remotes", .array(try remotes.map { try RemoteShowCommand.describe($0, in: folder) }))]))
            return
        }
        if remotes.isEmpty { Output.line("no remotes; add one with `stratus remote add NAME --container ID --environment development`"); return }
        let width = max(4, remotes.map(\.name.count).max() ?? 0)
        Output.line("NAME".padding(toLength: width, withPad: " ", startingAt: 0) + "  SIGN-IN      CONTAINER (ENVIRONMENT) AT URL")
        for remote in remotes {
            let signIn = RemoteShowCommand.signIn(try folder.credentials(of: remote.name)).padding(toLength: 11, withPad: " ", startingAt: 0)
            Output.line(remote.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  \(signIn)  "
                        + "\(remote.endpoint.container) (\(remote.endpoint.environment)) at \(remote.endpoint.url)")
        }
    }
}

struct RemoteShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show a remote, its secrets masked.")
    @Argument(help: "The remote's name.") var name: String
    @Flag(help: "Machine-readable JSON on standard output.") var json = false

    func run() throws {
        let folder = RemoteCommand.configurationFolder
        let remote = try folder.remote(named: name)
        if json { Output.json(try RemoteShowCommand.describe(remote, in: folder)); return }
        let credentials = try folder.credentials(of: name)
        Output.line("name         \(remote.name)")
        Output.line("url          \(remote.endpoint.url)")
        Output.line("container    \(remote.endpoint.container)")
        Output.line("environment  \(remote.endpoint.environment)")
        Output.line("api token    \(RemoteCredentials.masked(credentials.apiToken))")
        Output.line("web token    \(RemoteCredentials.masked(credentials.webAuthToken))")
        Output.line("key id       \(RemoteCredentials.masked(credentials.keyID))" + (credentials.privateKeyPEM == nil ? "" : " (private key held)"))
        Output.line("credentials  \(folder.credentialsPath)")
    }

    /// How the remote signs in, in a word.
    static func signIn(_ credentials: RemoteCredentials) -> String {
        if credentials.webAuthToken != nil { return "signed-in" }
        if credentials.keyID != nil { return "key" }
        if credentials.apiToken != nil { return "api-token" }
        return "none"
    }

    /// The remote as `--json` shows it: secrets masked.
    static func describe(_ remote: Remote, in folder: RemoteConfiguration) throws -> JSONValue {
        let credentials = try folder.credentials(of: remote.name)
        return .object([("name", .string(remote.name)), ("url", .string(remote.endpoint.url)), ("container", .string(remote.endpoint.container)),
                        ("environment", .string(remote.endpoint.environment)), ("signIn", .string(signIn(credentials))),
                        ("apiToken", .string(RemoteCredentials.masked(credentials.apiToken))),
                        ("webAuthToken", .string(RemoteCredentials.masked(credentials.webAuthToken))),
                        ("keyID", .string(RemoteCredentials.masked(credentials.keyID)))])
    }
}

struct RemoteRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Forget a remote and its credentials.")
    @Argument(help: "The remote's name.") var name: String

    func run() throws {
        guard try RemoteCommand.configurationFolder.remove(name) else { throw CommandFailure.failed("no remote named '\(name)'") }
        Output.line("removed \(name)")
    }
}

struct RemoteKeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key",
        abstract: "Give a remote a server-to-server key (P-256), which reaches its public database.",
        discussion: "The private key is copied into the credentials file (mode 0600); the PEM file can then be removed."
    )
    @Argument(help: "The remote's name.") var name: String
    @Option(help: "The key ID the CloudKit Console issued.") var keyId: String
    @Option(help: "The private key's PEM file (openssl ecparam -name prime256v1 -genkey -noout -out key.pem).") var privateKey: String

    func run() throws {
        let folder = RemoteCommand.configurationFolder
        _ = try folder.remote(named: name)
        guard let pem = FileManager.default.contents(atPath: privateKey).map({ String(decoding: $0, as: UTF8.self) }) else {
            throw CommandFailure.failed("cannot read \(privateKey)")
        }
        guard RemoteCredentials.isP256PrivateKey(pem) else {
            throw CommandFailure.failed("\(privateKey) is not a P-256 (prime256v1) private key in PEM form")
        }
        try folder.updateCredentials(of: name) { credentials in
            credentials.keyID = keyId
            credentials.privateKeyPEM = pem
        }
        Output.line("key \(RemoteCredentials.masked(keyId)) set for \(name): its public database is reachable with --remote \(name) --db public")
    }
}

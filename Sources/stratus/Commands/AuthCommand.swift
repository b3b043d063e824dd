import ArgumentParser
import Foundation
import StratusEngine
import StratusServer
import StratusCloud
import StratusStores

/// `stratus auth`: the credentials `stratus serve` accepts.
struct AuthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "auth",
        abstract: "Make the credentials the CloudKit Web Services server accepts.",
        subcommands: [AuthAPITokenCommand.self, AuthLoginCommand.self, AuthKeyCommand.self]
    )
}

/// Where credentials go: the store that serves the container.
struct CredentialStoreOptions: ParsableArguments {
    @Option(help: "The store file or postgres:// URL (default: $STRATUS_STORE, else the user's data folder).") var store: String?
    @Option(help: "A folder of stores as `stratus serve --stores` uses it (needs --container).") var stores: String?
    @Option(help: "The container identifier (with --store, default: every container the store serves).") var container: String?
    @Option(help: "With --stores: development or production.") var environment: String = "development"

    func validate() throws {
        if store != nil && stores != nil { throw ValidationError("give --store or --stores, not both") }
        if stores != nil && container == nil { throw ValidationError("--stores needs --container") }
        if let container, !StoreDirectory.isSafeName(container) && stores != nil {
            throw ValidationError("--container '\(container)' cannot name a store (letters, digits, '.', '-' and '_' only)")
        }
        guard StoreEnvironment(rawValue: environment) != nil else { throw ValidationError("--environment must be development or production") }
    }

    /// The store; `ifMissing: .create` for credentials, which may be made before the store
    /// is first served.
    func open(ifMissing: MissingStore = .refuse) throws -> Store {
        if let stores, let container {
            let path = StoreDirectory.path(folder: stores, container: container, environment: environment)
            return try StoreLocation.open(path, ifMissing: ifMissing, creatingWith: StoreEnvironment(rawValue: environment))
        }
        return try StoreLocation.open(store ?? StoreLocation.defaultPath, ifMissing: ifMissing)
    }
}

struct AuthAPITokenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "api-token",
        abstract: "Print a new API token (64 hex digits) for ckAPIToken; only its digest is kept."
    )

    @OptionGroup var options: CredentialStoreOptions

    func run() throws {
        Output.line(try options.open(ifMissing: .create).makeAPIToken(container: options.container ?? Store.anyContainer))
    }
}

struct AuthLoginCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Print a ckWebAuthToken that signs a user in to the server."
    )

    @OptionGroup var options: CredentialStoreOptions
    @Option(help: "The user to sign in: an alias or user record name from `stratus users` (default: the store's owner).") var user: String?

    func run() throws {
        let store = try options.open(ifMissing: .create)
        let name = try user.map { try store.user(named: $0).recordName } ?? store.owner
        Output.line(try store.makeWebAuthToken(container: options.container ?? Store.anyContainer, user: name))
    }
}

/// `stratus auth key add`: server-to-server keys.
struct AuthKeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key",
        abstract: "Register server-to-server keys (P-256), as the CloudKit Console does.",
        subcommands: [AuthKeyAddCommand.self]
    )
}

struct AuthKeyAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Register a P-256 public key (PEM) and print its key ID; requests signed with it reach the public database as the store's owner.",
        discussion: """
            Make a key pair with: openssl ecparam -name prime256v1 -genkey -noout -out eckey.pem; openssl ec -in eckey.pem -pubout -out pub.pem
            """
    )

    @OptionGroup var options: CredentialStoreOptions
    @Option(help: "The public key file (PEM, -----BEGIN PUBLIC KEY-----).") var publicKey: String

    func run() throws {
        guard let data = FileManager.default.contents(atPath: publicKey), let pem = String(data: data, encoding: .utf8) else {
            throw CommandFailure.usage("cannot read \(publicKey)")
        }
        guard isP256PublicKey(pem) else {
            throw CommandFailure.failed("\(publicKey) is not a P-256 public key in PEM (make one with `openssl ec -in eckey.pem -pubout`)")
        }
        let store = try options.open(ifMissing: .create)
        Output.line(try store.addServerKey(publicKeyPEM: pem, container: options.container ?? Store.anyContainer, user: store.owner))
    }
}

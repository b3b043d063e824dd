import ArgumentParser
import Foundation
import StratusEngine
import StratusCloud
import StratusCKWS
import StratusStores

/// `stratus users`: the store's users, as the CloudKit Console's User Records page.
struct UsersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "List and make users, and give them the schema's custom roles.",
        discussion: "Every command acts as a user with --user ALIAS (or a user record name, or 'none'); without it the store's owner acts.",
        subcommands: [List.self, Create.self, Current.self, Grant.self, Revoke.self],
        defaultSubcommand: List.self
    )

    /// The options these commands take.
    struct Options: ParsableArguments {
        @Option(help: "The store file or postgres:// URL (default: $STRATUS_STORE, else the user's data folder).") var store: String?
        @Flag(help: "Machine-readable JSON on standard output.") var json = false

        /// The store; `ifMissing: .create` only where a user is made (that sets a store up).
        func openStore(ifMissing: MissingStore = .refuse) throws -> Store {
            try StoreLocation.open(store ?? StoreLocation.defaultPath, ifMissing: ifMissing)
        }
    }

    static func json(_ user: StoreUser) -> JSONValue {
        .object([("userRecordName", .string(user.recordName)), ("alias", .string(user.alias)),
                 ("roles", .array(user.roles.map { .string($0) })), ("owner", .bool(user.isOwner))])
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the users, the owner first.")
        @OptionGroup var options: Options

        func run() throws {
            let users = try options.openStore().users()
            if options.json {
                Output.json(.object([("users", .array(users.map(UsersCommand.json)))]))
                return
            }
            let width = max(5, users.map(\.alias.count).max() ?? 0)
            Output.line("ALIAS".padding(toLength: width, withPad: " ", startingAt: 0) + "  USER RECORD NAME                   ROLES")
            for user in users {
                let roles = (user.isOwner ? ["(owner)"] : []) + user.roles
                Output.line(user.alias.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + user.recordName + "  " + roles.joined(separator: ", "))
            }
        }
    }

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make a user with a new user record name, a Users record and a private database.")
        @OptionGroup var options: Options
        @Argument(help: "A short name to act as the user by (--user ALIAS).") var alias: String

        func run() throws {
            let user = try options.openStore(ifMissing: .create).createUser(alias: alias)
            if options.json { Output.json(UsersCommand.json(user)) } else { Output.line("created \(user.alias) \(user.recordName)") }
        }
    }

    struct Current: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The acting user, as Web Services' users/current answers.")
        @OptionGroup var options: Options
        @Option(help: "The user (alias or user record name; default: the store's owner).") var user: String?

        func run() throws {
            let store = try options.openStore()
            let caller = try user.map { try store.caller(named: $0) } ?? .user(store.owner)
            guard let recordName = caller.userRecordName else {
                throw CloudKitError(.notAuthenticated, "No user is acting: users/current needs a signed-in user.")
            }
            let found = try store.user(named: recordName)
            if options.json {
                Output.json(.object([("userRecordName", .string(found.recordName)), ("alias", .string(found.alias))]))
            } else {
                Output.line("\(found.alias) \(found.recordName)")
            }
        }
    }

    struct Grant: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Give a user one of the schema's custom roles (CREATE ROLE) in the public database.")
        @OptionGroup var options: Options
        @Argument(help: "The role.") var role: String
        @Argument(help: "The user (alias or user record name).") var user: String

        func run() throws { try UsersCommand.changeRole(role, of: user, giving: true, options: options) }
    }

    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Take a custom role away from a user.")
        @OptionGroup var options: Options
        @Argument(help: "The role.") var role: String
        @Argument(help: "The user (alias or user record name).") var user: String

        func run() throws { try UsersCommand.changeRole(role, of: user, giving: false, options: options) }
    }

    /// Grants or revokes a role and prints the roles the user holds after.
    static func changeRole(_ role: String, of name: String, giving: Bool, options: Options) throws {
        let store = try options.openStore()
        if giving { try store.grant(role: role, to: name) } else { try store.revoke(role: role, from: name) }
        let changed = try store.user(named: name)
        if options.json {
            Output.json(json(changed))
        } else {
            Output.line("\(changed.alias) " + (changed.roles.isEmpty ? "holds no custom role" : "now holds \(changed.roles.joined(separator: ", "))"))
        }
    }
}

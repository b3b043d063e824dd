import Foundation
import StratusCloud

extension Store {
    /// The store's users, the owner first, then by alias.
    public func users() throws -> [StoreUser] {
        try read { db in try db.users.all(owner: owner) }
    }

    /// The user whose alias or user record name is `name`; `unknownItem` naming the users
    /// there are when there is none.
    public func user(named name: String) throws -> StoreUser {
        try read { db in
            if let user = try db.users.find(name, owner: owner) { return user }
            let aliases = try db.users.all(owner: owner).map(\.alias)
            throw CloudKitError(.unknownItem, "No user '\(name)' in this store; its users are \(aliases.joined(separator: ", ")).",
                                reason: .unknownUser(name))
        }
    }

    /// Who `name` acts as: `none` is no user; an alias or user record name is that user; a user
    /// record name the store does not know yet becomes a new user (as CloudKit meets a user
    /// the first time they sign in), with an alias made from it.
    public func caller(named name: String) throws -> Caller {
        if name.lowercased() == "none" { return .anonymous }
        if StoreUser.isRecordName(name), try read({ db in try db.users.find(name, owner: owner) }) == nil {
            try ensureUser(name)
            return .user(name)
        }
        return .user(try user(named: name).recordName)
    }

    /// Makes a user with a new user record name, their `Users` record and private database.
    @discardableResult
    public func createUser(alias: String) throws -> StoreUser {
        if let problem = StoreUser.aliasProblem(alias) { throw CloudKitError(.invalidArguments, problem) }
        return try write { db in
            if try db.users.find(alias, owner: owner) != nil {
                throw CloudKitError(.constraintViolation, "A user with alias '\(alias)' already exists.")
            }
            let recordName = StoreUser.makeRecordName()
            try db.users.insert(recordName: recordName, alias: alias)
            guard let made = try db.users.find(recordName, owner: owner) else {
                throw CloudKitError(.internalError, "User '\(alias)' was not written.")
            }
            return made
        }
    }

    /// Makes sure a user record name seen for the first time has a user, with its `Users`
    /// record and private database. Cheap when it exists: one read.
    public func ensureUser(_ recordName: String) throws {
        if knownUsers.withLock({ $0.contains(recordName) }) { return }
        if try read({ db in try db.users.find(recordName, owner: owner) }) == nil {
            try write { db in
                var alias = "user-" + recordName.dropFirst().prefix(8)
                if try db.users.find(alias, owner: owner) != nil { alias = String(recordName.dropFirst()) }
                try db.users.insert(recordName: recordName, alias: alias)
            }
        }
        knownUsers.withLock { _ = $0.insert(recordName) }
    }

    /// Gives a user one of the schema's custom roles in the public database, as the CloudKit
    /// Console's User Records page does (client APIs cannot).
    public func grant(role: String, to name: String) throws {
        try changeRoles(of: name, role: role) { $0.insert(role) }
    }

    /// Takes a custom role away from a user.
    public func revoke(role: String, from name: String) throws {
        try changeRoles(of: name, role: role) { $0.remove(role) }
    }

    private func changeRoles(of name: String, role: String, _ change: (inout Set<String>) -> Void) throws {
        try write { db in
            guard let user = try db.users.find(name, owner: owner) else {
                throw CloudKitError(.unknownItem, "No user '\(name)' in this store.", reason: .unknownUser(name))
            }
            let known = try db.schema.declaredRoles()
            guard known.contains(role) else {
                let which = known.isEmpty ? "the schema declares none (CREATE ROLE name;)" : "the schema's roles are \(known.joined(separator: ", "))"
                throw CloudKitError(.invalidArguments, "'\(role)' is not a custom role: \(which). _world, _icloud and _creator are held, not granted.")
            }
            var roles = try db.users.roles(of: user.recordName)
            change(&roles)
            try db.users.setRoles(roles, of: user.recordName)
        }
    }
}

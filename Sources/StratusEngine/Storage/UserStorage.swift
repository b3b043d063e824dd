import StratusCloud

/// The store's users, their aliases and custom roles.
///
/// Each user also has what CloudKit gives every user: a `Users` record in the public database
/// (named by the user record name, created by that user) and a private database whose default
/// zone is owned by them.
package protocol UserStorage {
    /// Every user, the store's `owner` first, then by alias.
    func all(owner: String) throws -> [StoreUser]

    /// The user whose alias or record name is `name`.
    func find(_ name: String, owner: String) throws -> StoreUser?

    /// Every user's alias, by user record name.
    func aliases() throws -> [String: String]

    /// Whether a user has this record name.
    func exists(_ recordName: String) throws -> Bool

    /// The custom roles of a user (none for an unknown one).
    func roles(of recordName: String) throws -> Set<String>

    func setRoles(_ roles: Set<String>, of recordName: String) throws

    /// Adds a user with their `Users` record and private default zone; a user that exists is
    /// left as it is.
    func insert(recordName: String, alias: String) throws
}

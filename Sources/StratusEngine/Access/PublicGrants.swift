import StratusModel
import StratusCloud

/// The public database's security roles for one record type: who may create, read and write
/// its records, from the schema's GRANT entries.
///
/// Permissions add up: a caller may do what any role they hold is granted; there is no deny.
/// `_world` is everyone, `_icloud` every signed-in user, `_creator` the user who created the
/// record in question, and custom roles the users given them.
struct PublicGrants {
    typealias Permission = GrantDeclaration.Permission

    let typeName: String
    /// Roles granted each permission.
    private(set) var roles: [Permission: Set<String>] = [:]

    /// The grants the schema declares for a type, or CloudKit's defaults where it declares none
    /// in development (world readable, creator writable, any signed-in user may create). `Users`
    /// records are made by CloudKit, never by clients: no one is granted CREATE on them.
    init(typeName: String, declared: [GrantDeclaration]?, development: Bool) {
        self.typeName = typeName
        let grants: [GrantDeclaration]
        if let declared, !declared.isEmpty {
            grants = declared
        } else if typeName == "Users" {
            grants = [GrantDeclaration([.write], to: "_creator"), GrantDeclaration([.read], to: "_world")]
        } else if development {
            grants = [GrantDeclaration([.write], to: "_creator"), GrantDeclaration([.create], to: "_icloud"), GrantDeclaration([.read], to: "_world")]
        } else {
            grants = []
        }
        for grant in grants {
            for permission in grant.permissions { roles[permission, default: []].insert(grant.role) }
        }
    }

    /// Whether a caller holding `callerRoles` may do `permission`, on a record created by
    /// `creator` (nil for a record not made yet).
    func allows(_ permission: Permission, callerRoles: Set<String>, caller: Caller, creator: String?) -> Bool {
        let granted = roles[permission] ?? []
        if !granted.isDisjoint(with: callerRoles) { return true }
        if let user = caller.userRecordName, let creator, creator == user, granted.contains("_creator") { return true }
        return false
    }

    /// Whether every caller may read every record of the type (queries then skip the check).
    var readableByEveryone: Bool { roles[.read]?.contains("_world") ?? false }

    /// `permissionFailure` saying what was refused and which roles would allow it.
    func refusal(_ permission: Permission, caller: Caller) -> CloudKitError {
        let granted = (roles[permission] ?? []).sorted()
        let who = granted.isEmpty
            ? "no role is granted \(permission.rawValue) on it"
            : "\(permission.rawValue) is granted to \(granted.joined(separator: ", "))"
        let acting = caller.userRecordName.map { "user \($0)" } ?? "a caller with no user (only _world)"
        return CloudKitError(.permissionFailure, "\(permission.rawValue) operation not permitted on record type '\(typeName)' in the public database for \(acting): \(who).")
    }

    /// The roles a caller holds before any record is looked at.
    static func callerRoles(_ caller: Caller, customRoles: Set<String>) -> Set<String> {
        caller.userRecordName == nil ? ["_world"] : customRoles.union(["_world", "_icloud"])
    }
}

import Foundation
import GRDB
import StratusCloud
import StratusEngine
import StratusModel

/// The `user` table: the store's users, their aliases and custom roles.
///
/// Each user also has what CloudKit gives every user: a `Users` record in the public database
/// (named by the user record name, created by that user) and a private database whose default
/// zone is a `zone` row owned by them.
struct SQLiteUserStorage: UserStorage {
    let db: SQLiteTransaction

    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v10-users") { db in
            try db.execute(sql: """
                CREATE TABLE user (
                    record_name TEXT PRIMARY KEY,
                    alias TEXT NOT NULL UNIQUE COLLATE NOCASE,
                    roles TEXT NOT NULL DEFAULT '',
                    created_at INTEGER NOT NULL
                ) WITHOUT ROWID;
                """)
            // What a store made before users held belongs to its owner: the private database's
            // zones become the owner's (zone row ids, and so every token, stay as they were).
            guard let info = try SQLiteSchemaStorage(db: SQLiteTransaction(sqlite: db)).storeInfo() else { return }
            try db.execute(sql: "UPDATE zone SET owner = ? WHERE scope = ? AND owner = ?",
                           arguments: [info.owner, DatabaseScope.private.rawValue, ZoneID.defaultOwnerName])
            try SQLiteUserStorage(db: SQLiteTransaction(sqlite: db)).insert(recordName: info.owner, alias: NewStore.ownerAlias)
        }
    }

    func all(owner: String) throws -> [StoreUser] {
        try Row.fetchAll(db.sqlite, sql: "SELECT record_name, alias, roles, created_at FROM user ORDER BY record_name = ? DESC, alias",
                         arguments: [owner]).map { Self.user(from: $0, owner: owner) }
    }

    /// The user whose alias or record name is `name`.
    func find(_ name: String, owner: String) throws -> StoreUser? {
        try Row.fetchOne(db.sqlite.cachedStatement(sql: "SELECT record_name, alias, roles, created_at FROM user WHERE record_name = ? OR alias = ?"),
                         arguments: [name, name]).map { Self.user(from: $0, owner: owner) }
    }

    /// The custom roles of a user (none for an unknown one).
    /// Every user's alias, by user record name.
    func aliases() throws -> [String: String] {
        var aliases: [String: String] = [:]
        for user in try Row.fetchAll(db.sqlite, sql: "SELECT record_name, alias FROM user") { aliases[user["record_name"]] = user["alias"] }
        return aliases
    }

    func exists(_ recordName: String) throws -> Bool {
        try Bool.fetchOne(db.sqlite.cachedStatement(sql: "SELECT 1 FROM user WHERE record_name = ?"), arguments: [recordName]) ?? false
    }

    func roles(of recordName: String) throws -> Set<String> {
        let text = try String.fetchOne(db.sqlite.cachedStatement(sql: "SELECT roles FROM user WHERE record_name = ?"), arguments: [recordName]) ?? ""
        return Set(text.split(separator: ",").map(String.init))
    }

    func setRoles(_ roles: Set<String>, of recordName: String) throws {
        try db.sqlite.execute(sql: "UPDATE user SET roles = ? WHERE record_name = ?", arguments: [roles.sorted().joined(separator: ","), recordName])
    }

    /// Adds a user with their `Users` record and private default zone; a user that exists is
    /// left as it is.
    func insert(recordName: String, alias: String) throws {
        guard try String.fetchOne(db.sqlite, sql: "SELECT record_name FROM user WHERE record_name = ?", arguments: [recordName]) == nil else { return }
        let now = FieldValue.milliseconds(Date())
        try db.sqlite.execute(sql: "INSERT INTO user (record_name, alias, created_at) VALUES (?, ?, ?)", arguments: [recordName, alias, now])
        try db.sqlite.execute(sql: "INSERT OR IGNORE INTO zone (scope, owner, name) VALUES (?, ?, ?)",
                       arguments: [DatabaseScope.private.rawValue, recordName, ZoneID.defaultZoneName])
        try insertUsersRecord(recordName, now: now)
    }

    /// The user's `Users` record in the public default zone, as CloudKit keeps one per user.
    private func insertUsersRecord(_ recordName: String, now: Int64) throws {
        guard let typeID = try Int64.fetchOne(db.sqlite, sql: "SELECT id FROM record_type WHERE name = 'Users'"),
              let zone = try db.zones.find(.default, scope: .public) else { return }
        let sequence = zone.changeSequence + 1
        let blob = FieldCoder.encode([:])
        try db.sqlite.execute(sql: """
            INSERT OR IGNORE INTO record (zone_id, name, type_id, fields, change_tag, seq, created_at, created_by, modified_at, modified_by, parent, size)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?)
            """, arguments: [zone.id, recordName, typeID, blob, ChangeTag.make(), sequence, now, recordName, now, recordName, blob.count])
        try db.sqlite.execute(sql: "UPDATE zone SET change_seq = ? WHERE id = ?", arguments: [sequence, zone.id])
    }

    private static func user(from row: Row, owner: String) -> StoreUser {
        let roles: String = row["roles"]
        let recordName: String = row["record_name"]
        return StoreUser(recordName: recordName, alias: row["alias"], roles: roles.split(separator: ",").map(String.init).sorted(),
                         createdAt: FieldValue.date(milliseconds: row["created_at"]), isOwner: recordName == owner)
    }
}

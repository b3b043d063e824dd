import Foundation
import StratusCloud
import StratusEngine
import StratusModel

/// The store's users in a memory store's tables. Aliases compare without regard to case, as
/// SQLite's `user` table has them.
struct MemoryUserStorage: UserStorage {
    let db: MemoryTransaction

    func all(owner: String) throws -> [StoreUser] {
        db.tables.users.sorted { a, b in
            if (a.key == owner) != (b.key == owner) { return a.key == owner }
            return a.value.alias.lowercased() < b.value.alias.lowercased()
        }.map { user($0.key, $0.value, owner: owner) }
    }

    func find(_ name: String, owner: String) throws -> StoreUser? {
        if let found = db.tables.users[name] { return user(name, found, owner: owner) }
        let folded = name.lowercased()
        return db.tables.users.first { $0.value.alias.lowercased() == folded }.map { user($0.key, $0.value, owner: owner) }
    }

    func aliases() throws -> [String: String] { db.tables.users.mapValues(\.alias) }

    func exists(_ recordName: String) throws -> Bool { db.tables.users[recordName] != nil }

    func roles(of recordName: String) throws -> Set<String> { db.tables.users[recordName]?.roles ?? [] }

    func setRoles(_ roles: Set<String>, of recordName: String) throws { db.tables.users[recordName]?.roles = roles }

    func insert(recordName: String, alias: String) throws {
        guard db.tables.users[recordName] == nil else { return }
        let folded = alias.lowercased()
        guard !db.tables.users.values.contains(where: { $0.alias.lowercased() == folded }) else {
            throw CloudKitError(.constraintViolation, "A user with the alias '\(alias)' exists already.")
        }
        let now = FieldValue.milliseconds(Date())
        db.tables.users[recordName] = MemoryTables.User(alias: alias, createdAt: now)
        MemoryZoneStorage(db: db).insertZone(MemoryTables.ZoneKey(scope: .private, owner: recordName, name: ZoneID.defaultZoneName), databaseSequence: 0)
        try insertUsersRecord(recordName, now: now)
    }

    /// The user's `Users` record in the public default zone, as CloudKit keeps one per user.
    private func insertUsersRecord(_ recordName: String, now: Int64) throws {
        guard let typeID = db.tables.types.first(where: { $0.value.name == "Users" })?.key,
              let zone = try MemoryZoneStorage(db: db).find(.default, scope: .public),
              db.tables.recordNames[zone.id]?[recordName] == nil else { return }
        let sequence = zone.changeSequence + 1
        let records = MemoryRecordStorage(db: db)
        records.put(RecordRow(zoneRowID: zone.id, name: recordName, typeID: typeID, blob: FieldCoder.encode([:]), changeTag: ChangeTag.make(),
                              sequence: sequence, createdAt: now, createdBy: recordName, modifiedAt: now, modifiedBy: recordName, parent: nil,
                              changedKeys: nil),
                    id: db.tables.lastRecordID + 1)
        db.tables.zones[zone.id]?.changeSequence = sequence
    }

    private func user(_ recordName: String, _ user: MemoryTables.User, owner: String) -> StoreUser {
        StoreUser(recordName: recordName, alias: user.alias, roles: user.roles.sorted(), createdAt: FieldValue.date(milliseconds: user.createdAt),
                  isOwner: recordName == owner)
    }
}

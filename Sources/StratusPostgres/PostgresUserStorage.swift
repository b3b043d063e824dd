import Foundation
import StratusCloud
import StratusEngine
import StratusModel

/// The store's users in a PostgreSQL store. Aliases compare without regard to case.
struct PostgresUserStorage: UserStorage {
    let db: PostgresTransaction

    private static let columns = "record_name, alias, roles, created_at"

    func all(owner: String) throws -> [StoreUser] {
        try db.link.rows("SELECT \(Self.columns) FROM app_user ORDER BY record_name = $1 DESC, lower(alias)", [owner]).map { try user($0, owner: owner) }
    }

    func find(_ name: String, owner: String) throws -> StoreUser? {
        try db.link.rows("SELECT \(Self.columns) FROM app_user WHERE record_name = $1 OR lower(alias) = lower($1) ORDER BY record_name = $1 DESC LIMIT 1",
                         [name]).first.map { try user($0, owner: owner) }
    }

    func aliases() throws -> [String: String] {
        var result: [String: String] = [:]
        for row in try db.link.rows("SELECT record_name, alias FROM app_user") { result[try row.string(0)] = try row.string(1) }
        return result
    }

    func exists(_ recordName: String) throws -> Bool {
        try !db.link.rows("SELECT 1 FROM app_user WHERE record_name = $1", [recordName]).isEmpty
    }

    func roles(of recordName: String) throws -> Set<String> {
        Set(try db.link.rows("SELECT roles FROM app_user WHERE record_name = $1", [recordName]).first?.strings(0) ?? [])
    }

    func setRoles(_ roles: Set<String>, of recordName: String) throws {
        try db.link.run("UPDATE app_user SET roles = $1 WHERE record_name = $2", [roles.sorted(), recordName])
    }

    /// The user, their private default zone and their `Users` record in the public default zone.
    func insert(recordName: String, alias: String) throws {
        guard try !exists(recordName) else { return }
        guard try db.link.rows("SELECT 1 FROM app_user WHERE lower(alias) = lower($1)", [alias]).isEmpty else {
            throw CloudKitError(.constraintViolation, "A user with the alias '\(alias)' exists already.")
        }
        let now = FieldValue.milliseconds(Date())
        try db.link.run("INSERT INTO app_user (record_name, alias, created_at) VALUES ($1, $2, $3)", [recordName, alias, now])
        let zones = PostgresZoneStorage(db: db)
        if try zones.find(ZoneID(zoneName: ZoneID.defaultZoneName, ownerName: recordName), scope: .private) == nil {
            try zones.insertZone(ZoneID(zoneName: ZoneID.defaultZoneName, ownerName: recordName), scope: .private, databaseSequence: 0)
        }
        try insertUsersRecord(recordName, now: now)
    }

    private func insertUsersRecord(_ recordName: String, now: Int64) throws {
        guard let typeID = try db.link.integer("SELECT id FROM record_type WHERE name = 'Users'"),
              let zone = try PostgresZoneStorage(db: db).find(.default, scope: .public) else { return }
        let sequence = zone.changeSequence + 1
        let row = RecordRow(zoneRowID: zone.id, name: recordName, typeID: typeID, blob: FieldCoder.encode([:]), changeTag: ChangeTag.make(),
                            sequence: sequence, createdAt: now, createdBy: recordName, modifiedAt: now, modifiedBy: recordName, parent: nil,
                            changedKeys: nil)
        guard try PostgresRecordStorage(db: db).insertRow(row, tokens: [], targets: []) != nil else { return }
        try db.link.run("UPDATE zone SET change_seq = $1 WHERE id = $2", [sequence, zone.id])
    }

    private func user(_ row: PostgresRowReader, owner: String) throws -> StoreUser {
        let recordName = try row.string(0)
        return StoreUser(recordName: recordName, alias: try row.string(1), roles: try row.strings(2).sorted(),
                         createdAt: FieldValue.date(milliseconds: try row.int(3)), isOwner: recordName == owner)
    }
}

import Foundation
import StratusCloud
import StratusEngine
import StratusModel

extension MemoryTables {
    /// A zone's identity in its database: (scope, owner, name) is unique.
    struct ZoneKey: Hashable {
        var scope: DatabaseScope
        var owner: String
        var name: String
    }

    struct Zone {
        var id: Int64
        var key: ZoneKey
        var incarnation: Int64 = 1
        var changeSequence: Int64 = 0
        var databaseSequence: Int64 = 0
        var state: ZoneRow.State = .live
        var compactedSequence: Int64 = 0

        /// The engine's view of the zone.
        var row: ZoneRow {
            ZoneRow(id: id, scope: key.scope, zoneID: ZoneID(zoneName: key.name, ownerName: key.owner), ownerRecordName: key.owner,
                    incarnation: incarnation, changeSequence: changeSequence, databaseSequence: databaseSequence, state: state,
                    compactedSequence: compactedSequence)
        }
    }

    /// A record as written, with the changed keys its last change left.
    struct Record {
        var id: Int64
        var row: RecordRow

        var stored: StoredRecord {
            StoredRecord(id: id, zoneRowID: row.zoneRowID, name: row.name, typeID: row.typeID, fieldsBlob: row.blob, changeTag: row.changeTag,
                         sequence: row.sequence, createdAt: row.createdAt, createdBy: row.createdBy, modifiedAt: row.modifiedAt,
                         modifiedBy: row.modifiedBy, parent: row.parent)
        }
    }

    struct RecordType {
        var name: String
        var systemIndexes: String
        var retired = false
    }

    struct Field {
        var typeID: Int64
        var name: String
        var fieldType: String
        var indexes: Int
        var declaredType: String?
    }

    struct User {
        var alias: String
        var roles: Set<String> = []
        var createdAt: Int64
    }

    struct Share {
        var row: ShareRows.ShareRow
        var isLive = true
    }

    struct Subscription {
        var id: Int64
        var scope: DatabaseScope
        var owner: String
        var subscription: StratusCloud.Subscription

        var row: SubscriptionRow { SubscriptionRow(id: id, scope: scope, owner: owner, subscription: subscription) }
    }

    struct Notification {
        var owner: String
        var originDevice: String
        var notification: CloudNotification
    }

    struct Credential {
        var digest: String
        var kind: String
        var container: String
        var user: String?
    }

    struct ServerKey {
        var keyID: String
        var container: String
        var publicKeyPEM: String
        var user: String
    }
}

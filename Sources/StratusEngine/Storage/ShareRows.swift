import Foundation
import StratusCloud

/// What sharing stores, row by row: which records and zones are shared, with whom, and when
/// each participant's access last changed (``ShareStorage`` reads and writes them).
///
/// A share is also a `cloudkit.share` record in its zone, written through the ordinary write
/// path; these rows hold what a record's fields cannot: the participants and the short GUID.
/// A deleted share keeps its rows (state 1, participants removed) so participants' database
/// changes can report the zone leaving their shared database.
package enum ShareRows {
    package struct ShareRow {
        package var id: Int64
        package var zoneRowID: Int64
        package var recordName: String
        package var rootName: String?
        package var shortGUID: String
        package var publicPermission: SharePermission

        /// Every stored property: a storage backend makes these from its rows.
        package init(id: Int64, zoneRowID: Int64, recordName: String, rootName: String? = nil, shortGUID: String, publicPermission: SharePermission) {
            self.id = id
            self.zoneRowID = zoneRowID
            self.recordName = recordName
            self.rootName = rootName
            self.shortGUID = shortGUID
            self.publicPermission = publicPermission
        }
    }

    package struct ParticipantRow {
        package var shareID: Int64
        package var user: String
        package var type: ParticipantType
        package var permission: SharePermission
        package var status: ParticipantStatus
        package var databaseSequence: Int64

        /// Every stored property: a storage backend makes these from its rows.
        package init(shareID: Int64, user: String, type: ParticipantType, permission: SharePermission, status: ParticipantStatus, databaseSequence: Int64) {
            self.shareID = shareID
            self.user = user
            self.type = type
            self.permission = permission
            self.status = status
            self.databaseSequence = databaseSequence
        }
    }

    /// A grant the caller holds in a zone: one accepted share, its root (nil: the whole zone)
    /// and permission.
    package struct Grant {
        package var shareID: Int64
        package var shareRecordName: String
        package var rootName: String?
        package var permission: SharePermission

        /// Every stored property: a storage backend makes these from its rows.
        package init(shareID: Int64, shareRecordName: String, rootName: String? = nil, permission: SharePermission) {
            self.shareID = shareID
            self.shareRecordName = shareRecordName
            self.rootName = rootName
            self.permission = permission
        }
    }

    /// A zone a user took part in a share of (accepted, or removed since), with that share's
    /// state and when the user's access last changed.
    package struct ZoneAccess {
        package var zone: ZoneRow
        package var status: ParticipantStatus?
        package var shareIsLive: Bool
        package var accessSequence: Int64

        /// Every stored property: a storage backend makes these from its rows.
        package init(zone: ZoneRow, status: ParticipantStatus? = nil, shareIsLive: Bool, accessSequence: Int64) {
            self.zone = zone
            self.status = status
            self.shareIsLive = shareIsLive
            self.accessSequence = accessSequence
        }
    }
}

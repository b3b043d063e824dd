import StratusCloud

/// Shares and their participants: which records and zones are shared, with whom, and when each
/// participant's access last changed (the order their shared databases report it in).
package protocol ShareStorage {
    /// The live share with this short GUID (its URL's last part).
    func live(shortGUID: String) throws -> ShareRows.ShareRow?

    /// The zone's live shares, oldest first.
    func live(zoneRowID: Int64) throws -> [ShareRows.ShareRow]

    /// A share's participants, by type, then user.
    func participants(of shareID: Int64) throws -> [ShareRows.ParticipantRow]

    /// The live shares of `owner`'s private zones, by zone name, then root.
    func owned(by owner: String) throws -> [ShareRows.ShareRow]

    /// The live shares `user` has accepted (not as their owner), oldest first.
    func accepted(by user: String) throws -> [ShareRows.ShareRow]

    /// One row per share `user` accepted or was removed from (owners left out), with its zone.
    func zoneAccess(user: String) throws -> [ShareRows.ZoneAccess]

    /// The live shares of a zone that `user` has accepted.
    func grants(zoneRowID: Int64, user: String) throws -> [ShareRows.Grant]

    /// Users who have accepted a live share of the zone (owners left out).
    func acceptedUsers(zoneRowID: Int64) throws -> Set<String>

    /// Ends a share (its record or root was deleted, or its zone): participants are removed
    /// and their database changes will report the zone gone.
    func end(_ shareID: Int64, databaseSequence: Int64) throws

    /// A new share, with its owner as an accepted participant.
    func insert(zoneRowID: Int64, recordName: String, rootName: String?, shortGUID: String,
                publicPermission: SharePermission, owner: String) throws

    /// Invites a user (again): a removed participant is invited anew, one invited or accepted
    /// keeps that status with the new permission.
    func invite(_ user: String, to shareID: Int64, permission: SharePermission, databaseSequence: Int64) throws

    /// A user joins a public share through its URL, accepted at once with its public permission.
    func join(_ user: String, publicShare shareID: Int64, permission: SharePermission, databaseSequence: Int64) throws

    /// Sets a participant's status at this position of their database's change feed.
    func setStatus(_ status: ParticipantStatus, of user: String, in shareID: Int64, databaseSequence: Int64) throws

    /// Changes who may join through the URL alone: going to `none` removes every participant
    /// but the owner, going public removes those still invited.
    func setPublicPermission(_ permission: SharePermission, of shareID: Int64, databaseSequence: Int64) throws

    /// The live shares whose share record or root record is `name` in the zone.
    func touching(zoneRowID: Int64, recordName name: String) throws -> [Int64]

    /// Whether the zone has any live share (a cheap check the write path makes per zone).
    func zoneIsShared(_ zoneRowID: Int64) throws -> Bool

}

import Foundation
import StratusCloud

/// What a share participant (or anyone, for a share's public permission) may do.
public enum SharePermission: Int, Sendable, CaseIterable, CustomStringConvertible {
    case none = 1
    case readOnly = 2
    case readWrite = 3

    /// The Web Services spelling: `NONE`, `READ_ONLY`, `READ_WRITE`.
    public var wireName: String {
        switch self {
        case .none: return "NONE"
        case .readOnly: return "READ_ONLY"
        case .readWrite: return "READ_WRITE"
        }
    }

    /// The command line's spelling: `none`, `read-only`, `read-write`.
    public var description: String {
        switch self {
        case .none: return "none"
        case .readOnly: return "read-only"
        case .readWrite: return "read-write"
        }
    }

    /// Reads either spelling, in any case.
    public init?(name: String) {
        let folded = name.lowercased().replacingOccurrences(of: "_", with: "-")
        guard let match = SharePermission.allCases.first(where: { $0.description == folded }) else { return nil }
        self = match
    }
}

/// Where a participant stands with a share.
public enum ParticipantStatus: Int, Sendable, CustomStringConvertible {
    case invited = 1
    case accepted = 2
    case removed = 3

    /// The Web Services spelling, as iCloud answers and CloudKit JS's enum reads it: `PENDING`,
    /// `ACCEPTED`, `REMOVED`.
    public var wireName: String {
        switch self {
        case .invited: return "PENDING"
        case .accepted: return "ACCEPTED"
        case .removed: return "REMOVED"
        }
    }

    /// The command line's word: `invited`, `accepted`, `removed`.
    public var description: String {
        switch self {
        case .invited: return "invited"
        case .accepted: return "accepted"
        case .removed: return "removed"
        }
    }
}

/// How a participant came to a share: the owner, added by the owner, or self-added through the
/// URL of a public share.
public enum ParticipantType: Int, Sendable, CustomStringConvertible {
    case owner = 1
    case privateUser = 3
    case publicUser = 4

    /// The Web Services spelling, as iCloud answers and CloudKit JS's enum reads it: `OWNER`,
    /// `PRIVATE_USER`, `PUBLIC_USER`.
    public var wireName: String {
        switch self {
        case .owner: return "OWNER"
        case .privateUser: return "PRIVATE_USER"
        case .publicUser: return "PUBLIC_USER"
        }
    }

    /// The command line's word: `owner`, `user`, `public_user`.
    public var description: String {
        switch self {
        case .owner: return "owner"
        case .privateUser: return "user"
        case .publicUser: return "public_user"
        }
    }
}

/// One participant of a share.
public struct ShareParticipant: Hashable, Sendable {
    public var userRecordName: String
    /// The user's alias in this store.
    public var alias: String
    public var type: ParticipantType
    public var permission: SharePermission
    public var status: ParticipantStatus

    /// Also public for front ends that read participants from elsewhere (a Web Services answer).
    public init(userRecordName: String, alias: String, type: ParticipantType, permission: SharePermission, status: ParticipantStatus) {
        self.userRecordName = userRecordName
        self.alias = alias
        self.type = type
        self.permission = permission
        self.status = status
    }
}

/// A share as its owner and participants see it: a record share (a root record and the records
/// whose `parent` chain leads to it) or a zone-wide share.
public struct Share: Hashable, Sendable {
    /// The `cloudkit.share` record's ID, in the owner's zone as the owner names it.
    public var recordID: RecordID
    /// The root record's name; nil for a zone-wide share.
    public var rootRecordName: String?
    public var ownerRecordName: String
    public var ownerAlias: String
    public var shortGUID: String
    public var publicPermission: SharePermission
    /// Every participant, the owner first.
    public var participants: [ShareParticipant]
    /// The title kept in the share record's `cloudkit.title` field, if any.
    public var title: String?

    /// Also public for front ends that read shares from elsewhere (a Web Services answer).
    public init(recordID: RecordID, rootRecordName: String?, ownerRecordName: String, ownerAlias: String, shortGUID: String,
                publicPermission: SharePermission, participants: [ShareParticipant], title: String?) {
        self.recordID = recordID
        self.rootRecordName = rootRecordName
        self.ownerRecordName = ownerRecordName
        self.ownerAlias = ownerAlias
        self.shortGUID = shortGUID
        self.publicPermission = publicPermission
        self.participants = participants
        self.title = title
    }

    /// The share's URL, in the shape CloudKit gives: `https://www.icloud.com/share/<shortGUID>`.
    public var url: String { Share.urlPrefix + shortGUID }

    public var isZoneWide: Bool { rootRecordName == nil }

    static let urlPrefix = "https://www.icloud.com/share/"

    /// The short GUID in a share URL (or the short GUID itself).
    public static func shortGUID(fromURL text: String) -> String {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        if let range = rest.range(of: "/share/") { rest = rest[range.upperBound...] }
        if let fragment = rest.firstIndex(where: { $0 == "#" || $0 == "?" || $0 == "/" }) { rest = rest[..<fragment] }
        return String(rest)
    }
}

import ArgumentParser
import Foundation
import StratusEngine
import StratusCKWS

/// `stratus share`: CKShare from the command line: share a record or a zone, invite and remove
/// participants, accept a share's URL, list and delete shares.
struct ShareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "share",
        abstract: "Share records and zones with other users, and accept what others shared.",
        discussion: """
            The owner shares from their private database; a participant who accepts the URL finds the zone in their shared \
            database (--db shared --zone NAME). Act as a user with --user ALIAS. With --remote NAME, list, create, add, \
            remove and accept work on a Web Services container as its signed-in user, who names participants by user \
            record name (Web Services has no aliases).
            """,
        subcommands: [Create.self, Add.self, Remove.self, Accept.self, List.self, Delete.self],
        defaultSubcommand: List.self
    )

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Share a record and the records under it (--record), or a whole zone (--zone alone).")
        @OptionGroup var common: CommonOptions
        @Option(help: "The root record to share (in --zone).") var record: String?
        @Option(help: "Who may join with the URL alone: none, read-only or read-write.") var publicPermission: String = "none"
        @Option(help: "The share's title (cloudkit.title).") var title: String?

        func run() throws {
            guard let permission = SharePermission(name: publicPermission) else {
                throw CommandFailure.usage("--public-permission must be none, read-only or read-write, not '\(publicPermission)'")
            }
            let share = try common.service().createShare(rootRecord: record, inZoneWith: try common.zoneID(), publicPermission: permission,
                                                          title: title, recordName: nil, fields: [:])
            if common.json { Output.json(ShareCommand.json(share)) } else {
                Output.line(share.url)
                Output.line("share record \(share.recordID.recordName) in zone \(share.recordID.zoneID.zoneName)")
            }
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Invite a user to a share you own, or change their permission.")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The share's URL.") var url: String
        @Option(help: "The user to invite (alias or user record name).") var participant: String
        @Option(help: "read-only or read-write.") var permission: String

        func run() throws {
            guard let parsed = SharePermission(name: permission), parsed != .none else {
                throw CommandFailure.usage("--permission must be read-only or read-write, not '\(permission)'")
            }
            let recordName = try ShareCommand.userRecordName(participant, common)
            ShareCommand.print(try common.service().addParticipant(recordName, permission: parsed, toShare: url), json: common.json)
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Take a participant out of a share you own.")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The share's URL.") var url: String
        @Option(help: "The participant (alias or user record name).") var participant: String

        func run() throws {
            let recordName = try ShareCommand.userRecordName(participant, common)
            ShareCommand.print(try common.service().removeParticipant(recordName, fromShare: url), json: common.json)
        }
    }

    struct Accept: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Accept a share as --user: its zone appears in their shared database.")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The share's URL (or its short GUID).") var url: String

        func run() throws {
            let share = try common.service().acceptShare(url)
            if common.json { Output.json(ShareCommand.json(share)) } else {
                Output.line("accepted: zone \(share.recordID.zoneID.zoneName) of \(share.ownerAlias) is in your shared database (--db shared --zone \(share.recordID.zoneID.zoneName))")
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The shares you own, with their participants, and the shares you accepted.")
        @OptionGroup var common: CommonOptions

        func run() throws {
            let (owned, accepted) = try common.service().shares()
            if common.json {
                Output.json(.object([("owned", .array(owned.map(ShareCommand.json))), ("accepted", .array(accepted.map(ShareCommand.json)))]))
                return
            }
            Output.line(owned.isEmpty ? "You own no shares." : "Shares you own:")
            for share in owned {
                Output.line("  " + ShareCommand.summary(share))
                for participant in share.participants where participant.type != .owner {
                    Output.line("    \(participant.alias)  \(participant.permission)  \(participant.status)")
                }
            }
            Output.line(accepted.isEmpty ? "You accepted no shares." : "Shares you accepted:")
            for share in accepted { Output.line("  " + ShareCommand.summary(share) + "  from \(share.ownerAlias)") }
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop sharing (owner), or leave a share (participant).")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The share's URL.") var url: String

        func run() throws {
            try common.service().deleteShare(url)
            if common.json { Output.json(DeletionJSON.encode([])) } else { Output.line("deleted \(url)") }
        }
    }

    /// A participant's user record name: a local store's alias is looked up; a remote knows its
    /// users by record name only.
    static func userRecordName(_ name: String, _ common: CommonOptions) throws -> String {
        guard common.remote == nil else { return name }
        return try common.database().store.user(named: name).recordName
    }

    static func summary(_ share: Share) -> String {
        let what = share.rootRecordName.map { "record \($0)" } ?? "whole zone"
        return "\(share.url)  zone \(share.recordID.zoneID.zoneName)  \(what)  public: \(share.publicPermission)"
    }

    static func print(_ share: Share, json: Bool) {
        if json { Output.json(ShareCommand.json(share)) } else { Output.line(summary(share)) }
    }

    /// A share in the Web Services shape of a `cloudkit.share` record's share keys.
    static func json(_ share: Share) -> JSONValue {
        func participant(_ participant: ShareParticipant) -> JSONValue {
            .object([("userIdentity", .object([("userRecordName", .string(participant.userRecordName))])), ("alias", .string(participant.alias)),
                     ("type", .string(participant.type.wireName)), ("permission", .string(participant.permission.wireName)),
                     ("acceptanceStatus", .string(participant.status.wireName))])
        }
        var members: [(String, JSONValue)] = [
            ("recordName", .string(share.recordID.recordName)), ("recordType", .string("cloudkit.share")),
            ("zoneID", .object([("zoneName", .string(share.recordID.zoneID.zoneName)), ("ownerRecordName", .string(share.ownerRecordName))])),
            ("shortGUID", .string(share.shortGUID)), ("url", .string(share.url)), ("publicPermission", .string(share.publicPermission.wireName)),
            ("participants", .array(share.participants.map(participant))),
        ]
        if let root = share.rootRecordName { members.append(("rootRecordName", .string(root))) }
        if let owner = share.participants.first(where: { $0.type == .owner }) { members.append(("owner", participant(owner))) }
        if let title = share.title { members.append(("title", .string(title))) }
        return .object(members)
    }
}

import ArgumentParser
import StratusEngine
import StratusCloud
import StratusCKWS

struct ChangesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "changes",
        abstract: "Play back a zone's changes since a token, or list zones changed since a database token.",
        discussion: "Without --limit every page is fetched; with --limit N one page of at most N changes, and moreComing says whether more follow."
    )

    @OptionGroup var common: CommonOptions
    @Option(help: "Start after this token (default: the beginning).") var since: String?
    @Option(help: "Stop at this later token of the zone: what changed between --since and it.") var until: String?
    @Option(help: "Only these fields (comma-separated).") var keys: String?
    @Flag(help: "System fields only.") var noKeys = false
    @Option(help: "At most this many changes (one page).") var limit: Int?
    @Flag(help: "Zones changed since a database token.") var database = false
    @Option(help: "sequence (the default), parents-first, children-first or shuffled: the order each page's changes come in.")
    var order: String = PlaybackOrder.sequence.rawValue
    @Option(help: "With --order shuffled: the seed (the same seed, the same order).") var seed: UInt64 = 0

    func validate() throws {
        if keys != nil && noKeys { throw ValidationError("--keys and --no-keys exclude each other") }
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
        if PlaybackOrder(rawValue: order) == nil {
            throw ValidationError("--order must be \(PlaybackOrder.allCases.map(\.rawValue).joined(separator: ", ")), not '\(order)'")
        }
    }

    func run() throws {
        let db = try common.service()
        if database { return try runDatabase(db) }
        let desiredKeys: [String]? = noKeys ? [] : keys.map(parseKeyList)
        var token = since
        var json: [JSONValue] = []
        var moreComing = false
        repeat {
            let page = try db.recordZoneChanges(inZoneWith: try common.zoneID(), since: token, until: until, desiredKeys: desiredKeys,
                                                resultsLimit: limit ?? CloudDatabase.maximumChangesLimit, includingChangedKeys: true)
                .ordered(PlaybackOrder(rawValue: order) ?? .sequence, seed: seed)
            for change in page.changes {
                switch change {
                case .changed(let record):
                    let changedKeys = page.changedKeys[record.recordName]
                    if common.json {
                        var encoded = RecordJSON.encode(record)
                        if let changedKeys, case .object(var members) = encoded {
                            members.append(("changedKeys", .array(changedKeys.map { .string($0) })))
                            encoded = .object(members)
                        }
                        json.append(encoded)
                    } else {
                        let keys = changedKeys.map { "  changed: " + ($0.isEmpty ? "(no fields)" : $0.joined(separator: ", ")) } ?? ""
                        Output.line("changed  \(record.recordType) \(record.recordName)  tag \(record.recordChangeTag ?? "")" + keys)
                    }
                case .deleted(let recordID, let type):
                    if common.json {
                        json.append(DeletionJSON.record(recordID.recordName, recordType: type))
                    } else {
                        Output.line("deleted  \(type) \(recordID.recordName)")
                    }
                }
            }
            token = page.changeToken
            moreComing = page.moreComing
        } while moreComing && limit == nil
        if common.json {
            Output.json(ChangePageJSON.encode([("records", .array(json))], syncToken: token ?? "", moreComing: moreComing))
        } else {
            Output.line("token \(token ?? "")" + (moreComing ? "  (more changes follow: pass --since with this token)" : ""))
        }
    }

    private func runDatabase(_ db: any CloudDatabaseService) throws {
        var token = since
        var zones: [JSONValue] = []
        var moreComing = false
        repeat {
            let page = try db.databaseChanges(since: token, resultsLimit: limit ?? CloudDatabase.maximumChangesLimit)
            let groups: [(String, [ZoneID])] = [("changed", page.changedZoneIDs), ("deleted", page.deletedZoneIDs), ("purged", page.purgedZoneIDs)]
            for (kind, ids) in groups {
                for zoneID in ids {
                    zones.append(.object([("zoneName", .string(zoneID.zoneName)), ("ownerRecordName", .string(zoneID.ownerName)),
                                          ("change", .string(kind))]))
                    if !common.json { Output.line("\(kind.padding(toLength: 8, withPad: " ", startingAt: 0)) \(zoneID.zoneName)") }
                }
            }
            token = page.changeToken
            moreComing = page.moreComing
        } while moreComing && limit == nil
        if common.json {
            Output.json(ChangePageJSON.encode([("zones", .array(zones))], syncToken: token ?? "", moreComing: moreComing))
        } else {
            Output.line("token \(token ?? "")")
        }
    }
}

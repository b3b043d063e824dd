import ArgumentParser
import StratusEngine
import StratusCloud
import StratusCKWS

struct ZonesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "zones",
        abstract: "List, make and delete record zones.",
        subcommands: [List.self, Create.self, Delete.self],
        defaultSubcommand: List.self
    )

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the zones of a database with their tokens and record counts.")
        @OptionGroup var common: CommonOptions

        func run() throws {
            let zones = try common.service().allRecordZones()
            if common.json {
                Output.json(.object([("zones", .array(zones.map { ZoneJSON.encode($0, owner: nil) }))]))
                return
            }
            let width = max(4, zones.map(\.zoneID.zoneName.count).max() ?? 0)
            // Zones shared with the user are named with their owners: show who (a remote's by record name).
            let store = common.remote == nil ? try common.openStore() : nil
            let owners = try zones.map { zone in
                zone.zoneID.ownerName == ZoneID.defaultOwnerName ? nil : try store?.user(named: zone.zoneID.ownerName).alias ?? zone.zoneID.ownerName
            }
            let ownerWidth = owners.compactMap { $0?.count }.max().map { max($0, 5) }
            let ownerHeader = ownerWidth.map { "OWNER".padding(toLength: $0, withPad: " ", startingAt: 0) + "  " } ?? ""
            Output.line("ZONE".padding(toLength: width, withPad: " ", startingAt: 0) + "  " + ownerHeader + "RECORDS  TOKEN")
            for (zone, owner) in zip(zones, owners) {
                let count = String(zone.recordCount)
                let ownerCell = ownerWidth.map { (owner ?? "").padding(toLength: $0, withPad: " ", startingAt: 0) + "  " } ?? ""
                Output.line(zone.zoneID.zoneName.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + ownerCell
                            + String(repeating: " ", count: max(0, 7 - count.count)) + count + "  " + zone.currentToken)
            }
        }
    }

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make custom zones (private database only).")
        @OptionGroup var common: CommonOptions
        @Argument(help: "Zone names.") var names: [String]

        func run() throws {
            try common.database(ifMissing: .create).modifyRecordZones(saving: names.map { ZoneID(zoneName: $0) })
            if !common.json { Output.line("created \(names.joined(separator: ", "))") } else {
                Output.json(.object([("zones", .array(names.map { .object([("zoneName", .string($0))]) }))]))
            }
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete zones and every record in them.")
        @OptionGroup var common: CommonOptions
        @Flag(help: "Report the zones as purged in database changes, as when a user deletes an app's data.") var purge = false
        @Argument(help: "Zone names.") var names: [String]

        func run() throws {
            try common.database().modifyRecordZones(deleting: names.map { ZoneID(zoneName: $0) }, purging: purge)
            if !common.json { Output.line("deleted \(names.joined(separator: ", "))") } else {
                Output.json(.object([("zones", .array(names.map { DeletionJSON.encode([("zoneName", .string($0))]) }))]))
            }
        }
    }
}

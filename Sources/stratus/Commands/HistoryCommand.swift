import ArgumentParser
import Foundation
import StratusEngine

/// `stratus history`: a zone's change history, and dropping its oldest part.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Show how far back a zone's change history reaches, or compact it so older tokens expire.",
        subcommands: [HistoryShowCommand.self, HistoryCompactCommand.self],
        defaultSubcommand: HistoryShowCommand.self
    )
}

struct HistoryShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "The oldest token that still plays back, and the current one.")

    @OptionGroup var common: CommonOptions

    func run() throws {
        let database = try common.database()
        let oldest = try database.oldestValidToken(for: try common.zoneID())
        let current = try database.currentToken(for: try common.zoneID())
        if common.json {
            Output.json(.object([("oldestValidToken", .string(oldest)), ("currentToken", .string(current))]))
        } else {
            Output.line("oldest token that still plays back: \(oldest)")
            Output.line("current token: \(current)")
        }
    }
}

struct HistoryCompactCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compact",
        abstract: "Drop a zone's change history before a token (or keep only the newest N changes).",
        discussion: """
            Deletions before the point are forgotten and every older token gets changeTokenExpired (21), as CloudKit \
            answers a client whose token is too old: the client must fetch the zone again from no token. Tokens at or \
            after the point keep working.
            """
    )

    @OptionGroup var common: CommonOptions
    @Option(help: "Compact before this token of the zone.") var before: String?
    @Option(help: "Keep only the newest N changes.") var keep: Int?

    func validate() throws {
        if (before == nil) == (keep == nil) { throw ValidationError("give --before TOKEN or --keep N") }
        if let keep, keep < 0 { throw ValidationError("--keep must be 0 or more") }
    }

    func run() throws {
        let result = try common.database().compactHistory(inZoneWith: try common.zoneID(), before: before, keeping: keep)
        if common.json {
            Output.json(.object([("compactedSequence", .integer(result.compactedSequence)), ("droppedDeletions", .integer(Int64(result.droppedDeletions))),
                                 ("oldestValidToken", .string(result.oldestValidToken))]))
        } else {
            Output.line("Compacted the history of \(common.zone) before change \(result.compactedSequence); dropped \(result.droppedDeletions) deletions.")
            Output.line("oldest token that still plays back: \(result.oldestValidToken)")
        }
    }
}

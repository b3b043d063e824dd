import ArgumentParser
import Foundation
import StratusEngine
import StratusStores

/// `stratus store`: whole stores, as opposed to what is in them.
struct StoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "Work with whole stores: copy one between SQLite files and PostgreSQL.",
        subcommands: [StoreCopyCommand.self]
    )
}

/// `stratus store copy SOURCE DEST`: a store copied exactly, in any direction between the
/// backends, so a store moves onto a team's server and back, or is backed up, keeping tokens.
struct StoreCopyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Copy a store exactly: between SQLite files and postgres:// URLs, in any direction.",
        discussion: """
            SOURCE and DEST are each a store file or a postgres://USER@HOST:PORT/DATABASE[?schema=NAME&sslmode=MODE] URL. \
            Everything is copied: records with their change tags, times and users, deletions, zones and their \
            change history, the schema with its roles and grants, assets, users, shares, subscriptions and \
            notifications, faults, server credentials and keys, the request log and push tokens. The copy keeps the \
            store's identity, so a change token taken on SOURCE plays back the same changes on DEST.

            SOURCE must exist and is only read (in one snapshot, so writers may go on). DEST must not exist, or be \
            an empty store; a store that holds data is refused and left as it is. DEST is written in one \
            transaction: if the copy fails, DEST is as it was (a store the copy made is removed again). Progress \
            goes to standard error; passwords in URLs are never shown.
            """
    )

    @Argument(help: "The store to copy: a file or a postgres:// URL. It must exist.") var source: String
    @Argument(help: "Where to copy it: a file or a postgres:// URL with no store, or an empty store.") var destination: String
    @Flag(help: "Machine-readable JSON on standard output.") var json = false

    func run() throws {
        let started = Date()
        let reporter = CopyProgressReporter()
        let counts = try StoreCopier.copy(from: source, to: destination, progress: reporter.report)
        let seconds = Date().timeIntervalSince(started)
        let records = counts[.record] ?? 0
        if json {
            Output.json(.object([("records", .integer(Int64(records))), ("deletions", .integer(Int64(counts[.tombstone] ?? 0))),
                                 ("zones", .integer(Int64(counts[.zone] ?? 0))), ("users", .integer(Int64(counts[.user] ?? 0))),
                                 ("seconds", .number(seconds))]))
        } else {
            Output.line("Copied \(StoreOpener.shown(source)) to \(StoreOpener.shown(destination)): \(records) records, "
                + "\(counts[.tombstone] ?? 0) deletions, \(counts[.zone] ?? 0) zones, \(counts[.user] ?? 0) users in "
                + String(format: "%.1f", seconds) + " s.")
        }
    }
}

/// Says on standard error how far a copy has come, at most about once a second and only
/// once it has run for a second, so a small copy prints nothing but its result.
private final class CopyProgressReporter {
    private let started = Date()
    private var lastShown = Date()

    func report(_ progress: StoreCopyProgress) {
        let now = Date()
        guard now.timeIntervalSince(started) >= 1, now.timeIntervalSince(lastShown) >= 1 else { return }
        lastShown = now
        FileHandle.standardError.write(Data("copying \(progress.table.shownName): \(progress.copied) of \(progress.total)\n".utf8))
    }
}

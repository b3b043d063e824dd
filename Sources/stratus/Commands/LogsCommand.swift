import ArgumentParser
import Foundation
import StratusEngine
import StratusCKWS

/// `stratus logs`: the requests `stratus serve` answered, newest last.
struct LogsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logs",
        abstract: "Show the requests the CloudKit Web Services server answered (the newest 10,000 are kept).",
        discussion: """
            Each line: time, HTTP status, duration, user, database, endpoint, container, and the error of a failed \
            request. --json prints one JSON object per line. --follow keeps printing requests as they come.
            """
    )

    @OptionGroup var options: CredentialStoreOptions
    @Option(help: "How many of the newest requests to show first.") var limit: Int = 50
    @Flag(help: "Keep printing new requests until interrupted.") var follow = false
    @Flag(help: "One JSON object per line.") var json = false

    func validate() throws {
        if limit < 0 || limit > 10_000 { throw ValidationError("--limit must be between 0 and 10000") }
    }

    func run() throws {
        let store = try options.open()
        var last: Int64? = nil
        var entries = limit == 0 ? [] : try store.requestLog(limit: limit)
        if limit == 0 { last = try store.requestLog(limit: 1).last?.id ?? 0 }
        let watch = follow ? store.watch([.requestLog], polling: .milliseconds(250)) : nil
        while true {
            for entry in entries { Output.line(json ? JSONWriter.string(Self.json(entry)) : Self.line(entry)) }
            if let newest = entries.last?.id { last = newest }
            guard let watch else { return }
            _ = watch.next()
            entries = try store.requestLog(after: last ?? 0, limit: 1000)
        }
    }

    static func line(_ entry: RequestLogEntry) -> String {
        let user = entry.user.map { $0.count > 12 ? String($0.prefix(12)) + "…" : $0 } ?? "(no user)"
        var text = "\(ISO8601.string(entry.time))  \(entry.status)  \(String(format: "%7.1f ms", Double(entry.durationMicroseconds) / 1000))  "
            + "\(user)  \(entry.database)  \(entry.endpoint)  \(entry.container)"
        if let error = entry.error { text += "  \(error)" }
        if let detail = entry.detail { text += "  \(detail)" }
        return text
    }

    static func json(_ entry: RequestLogEntry) -> JSONValue {
        .object([("id", .integer(entry.id)), ("time", .string(ISO8601.string(entry.time))), ("user", entry.user.map { .string($0) } ?? .null),
                 ("container", .string(entry.container)), ("database", .string(entry.database)), ("endpoint", .string(entry.endpoint)),
                 ("status", .integer(Int64(entry.status))), ("durationMs", .number(Double(entry.durationMicroseconds) / 1000)),
                 ("error", entry.error.map { .string($0) } ?? .null), ("detail", entry.detail.map { .string($0) } ?? .null)])
    }
}

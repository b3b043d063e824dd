import ArgumentParser
import Foundation
import StratusEngine
import StratusCloud
import StratusCKWS

/// `stratus faults`: the store's fault plan, the failures CloudKit sends made to happen on purpose.
struct FaultsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "faults",
        abstract: "Make CloudKit's failures happen on purpose: throttling, busy zones, conflicts, partial failures, expired tokens.",
        discussion: """
            The plan lives in the store, so the command line, the dashboard and `stratus serve` all meet it. Each \
            fault matches calls by operation, database, zone, record and token; its trigger decides which matching \
            calls it fires on (once by default; limitExceeded and changeTokenExpired on every call). `faults list` \
            shows how many calls each fault saw and fired on; `faults log` the firings.
            """,
        subcommands: [FaultsListCommand.self, FaultsAddCommand.self, FaultsClearCommand.self, FaultsLogCommand.self],
        defaultSubcommand: FaultsListCommand.self
    )
}

struct FaultsAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a fault to the plan.",
        discussion: """
            KIND is one of: \(FaultKind.allCases.map(\.name).joined(separator: ", ")).
              requestRateLimited, zoneBusy, serviceUnavailable: the call is refused with retryAfter (HTTP 429 / 503).
              serverRecordChanged: another device saves the record just before this save (--set its fields).
              partialFailure: the records named by --record (default: every other one) fail; the rest are written.
              limitExceeded: a batch over --limit items (default \(FaultKind.defaultItemLimit)) is refused whole.
              changeTokenExpired: playback from --token (default: any token) is refused; fetch from the beginning.
              notAuthenticated: the call is refused as if the user had signed out (HTTP 421).
            Operations: \(FaultOperation.allCases.map(\.name).joined(separator: ", ")).
            """
    )

    @OptionGroup var options: CredentialStoreOptions
    @Argument(help: "The failure to make.") var kind: String
    @Option(help: "Only calls to this database: public, private or shared (as --db everywhere else).") var db: String?
    /// The name this option had before it matched every other command's `--db`; kept for scripts.
    @Option(name: .customLong("database"), help: .hidden) var legacyDatabase: String?
    /// The database the fault matches, by either name.
    var database: String? { db ?? legacyDatabase }
    @Option(help: "Only calls touching this zone.") var zone: String?
    @Option(help: "Only this operation.") var operation: String?
    @Option(help: "Only calls naming this record (repeat for more); for partialFailure, the records that fail.") var record: [String] = []
    @Option(help: "changeTokenExpired: only this token.") var token: String?
    @Option(help: "Let N matching calls through, then fire once.") var after: Int?
    @Option(help: "Fire on every Nth matching call (1: all of them).") var every: Int?
    @Option(help: "Fire on each matching call with this probability (0-1), with --seed.") var probability: Double?
    @Option(help: "The seed of --probability, so a run replays exactly.") var seed: UInt64?
    @Option(name: .customLong("retry-after"), help: "Seconds the error tells the client to wait.") var retryAfter: Double?
    @Option(help: "limitExceeded: the most items a batch may hold.") var limit: Int?
    @Option(name: .customLong("set"), help: "serverRecordChanged: a field the other device sets, FIELD=VALUE (JSON, or text); repeat for more.")
    var assignments: [String] = []
    @Option(help: "The clients whose calls it meets: server, cli and dashboard, comma-separated (default: server,cli; the dashboard only when named).")
    var client: String?
    @Flag(help: "Print the fault as JSON.") var json = false

    func validate() throws {
        if let client, case .failure(let error) = FaultClient.parse(client) { throw ValidationError("--client: \(error.message)") }
        guard FaultKind(name: kind) != nil else {
            throw ValidationError("unknown fault kind '\(kind)'; use one of \(FaultKind.allCases.map(\.name).joined(separator: ", "))")
        }
        if db != nil, legacyDatabase != nil { throw ValidationError("give --db once (--database is its old name)") }
        if let database, DatabaseScope(name: database) == nil { throw ValidationError("--db must be public, private or shared") }
        if let operation, FaultOperation(name: operation) == nil {
            throw ValidationError("unknown --operation '\(operation)'; use one of \(FaultOperation.allCases.map(\.name).joined(separator: ", "))")
        }
        if [after != nil, every != nil, probability != nil].filter({ $0 }).count > 1 {
            throw ValidationError("give one of --after, --every and --probability")
        }
        if (probability == nil) != (seed == nil) { throw ValidationError("--probability and --seed go together") }
        for assignment in assignments where !assignment.contains("=") { throw ValidationError("--set takes FIELD=VALUE, not '\(assignment)'") }
    }

    func run() throws {
        let store = try options.open()
        var trigger: FaultTrigger?
        if let after { trigger = .after(after) }
        if let every { trigger = .every(every) }
        if let probability, let seed { trigger = .probability(probability, seed: seed) }
        let fault = Fault(kind: FaultKind(name: kind)!, scope: database.flatMap(DatabaseScope.init(name:)), zoneName: zone,
                          operation: operation.flatMap(FaultOperation.init(name:)), recordNames: record, token: token, trigger: trigger,
                          retryAfter: retryAfter, itemLimit: limit, otherDeviceFields: assignments.isEmpty ? nil : Fault.otherDeviceFields(assignments),
                          clients: client.flatMap { try? FaultClient.parse($0).get() } ?? FaultClient.byDefault)
        let added = try store.addFault(fault)
        if json { Output.json(FaultsListCommand.json(added)) } else { Output.line("Added fault #\(added.id): \(added.summary)") }
    }
}

struct FaultsListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "The plan, with how often each fault fired.")

    @OptionGroup var options: CredentialStoreOptions
    @Flag(help: "One JSON array.") var json = false

    func run() throws {
        let faults = try options.open().faults()
        if json { return Output.json(.array(faults.map(Self.json))) }
        if faults.isEmpty { return Output.line("The fault plan is empty: every call behaves. Add one with `stratus faults add KIND`.") }
        for fault in faults {
            let state = fault.isSpent ? "spent" : "armed"
            Output.line("#\(fault.id)  \(state)  fired \(fault.fired) of \(fault.seen)  \(fault.summary)")
        }
    }

    static func json(_ fault: Fault) -> JSONValue {
        var members: [(String, JSONValue)] = [("id", .integer(fault.id)), ("kind", .string(fault.kind.name)),
                                              ("code", .integer(Int64(fault.kind.code.rawValue)))]
        if let scope = fault.scope { members.append(("database", .string(scope.name))) }
        if let zone = fault.zoneName { members.append(("zone", .string(zone))) }
        if let operation = fault.operation { members.append(("operation", .string(operation.name))) }
        if !fault.recordNames.isEmpty { members.append(("records", .array(fault.recordNames.map { .string($0) }))) }
        if let token = fault.token { members.append(("token", .string(token))) }
        members.append(("trigger", trigger(fault.trigger)))
        if let retryAfter = fault.retryAfter { members.append(("retryAfter", .number(retryAfter))) }
        if fault.kind == .limitExceeded, let limit = fault.itemLimit { members.append(("limit", .integer(Int64(limit)))) }
        if let fields = fault.otherDeviceFields, let parsed = try? JSONParser.parse(fields) { members.append(("set", parsed)) }
        members.append(("clients", .array(fault.clients.sorted().map { .string($0.rawValue) })))
        members += [("seen", .integer(Int64(fault.seen))), ("fired", .integer(Int64(fault.fired))), ("spent", .bool(fault.isSpent)),
                    ("lastFired", fault.lastFired.map { .string(ISO8601.string($0)) } ?? .null), ("summary", .string(fault.summary))]
        return .object(members)
    }

    private static func trigger(_ trigger: FaultTrigger) -> JSONValue {
        switch trigger {
        case .once: return .object([("once", .bool(true))])
        case .after(let n): return .object([("after", .integer(Int64(n)))])
        case .every(let n): return .object([("every", .integer(Int64(n)))])
        case .probability(let p, let seed): return .object([("probability", .number(p)), ("seed", .string(String(seed)))])
        }
    }
}

struct FaultsClearCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "clear", abstract: "Remove one fault by number, or all of them (and the log).")

    @OptionGroup var options: CredentialStoreOptions
    @Argument(help: "The fault's number (from `faults list`); all when left out.") var id: Int64?

    func run() throws {
        let removed = try options.open().clearFaults(id: id)
        Output.line(id.map { "Removed fault #\($0)." } ?? "Removed \(removed) fault\(removed == 1 ? "" : "s"); the plan is empty.")
    }
}

struct FaultsLogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "log", abstract: "The newest firings (1,000 are kept).")

    @OptionGroup var options: CredentialStoreOptions
    @Option(help: "How many of the newest firings to show first.") var limit: Int = 50
    @Flag(help: "Keep printing firings until interrupted.") var follow = false
    @Flag(help: "One JSON object per line.") var json = false

    func validate() throws {
        if limit < 1 || limit > 1_000 { throw ValidationError("--limit must be between 1 and 1000") }
    }

    func run() throws {
        let store = try options.open()
        var events = try store.faultEvents(limit: limit)
        var last: Int64 = events.last?.id ?? 0
        let watch = follow ? store.watch([.faultEvents], polling: .milliseconds(250)) : nil
        while true {
            for event in events { Output.line(json ? JSONWriter.string(Self.json(event)) : Self.line(event)) }
            if let newest = events.last?.id { last = newest }
            guard let watch else { return }
            _ = watch.next()
            events = try store.faultEvents(after: last, limit: 1000)
        }
    }

    static func line(_ event: FaultEvent) -> String {
        "\(ISO8601.string(event.time))  #\(event.faultID)  \(event.operation.name)  \(event.database)\(event.zoneName.map { "/" + $0 } ?? "")  \(event.message)"
    }

    static func json(_ event: FaultEvent) -> JSONValue {
        .object([("id", .integer(event.id)), ("fault", .integer(event.faultID)), ("time", .string(ISO8601.string(event.time))),
                 ("kind", .string(event.kind.name)), ("operation", .string(event.operation.name)), ("database", .string(event.database)),
                 ("zone", event.zoneName.map { .string($0) } ?? .null), ("message", .string(event.message))])
    }
}

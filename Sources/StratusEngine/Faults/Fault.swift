import Foundation
import StratusModel
import StratusCloud
import StratusCKWS

/// One entry of a store's fault plan: a failure CloudKit can send, made to happen on chosen
/// calls so sync code meets it in a test rather than in production.
///
/// A fault matches a call by operation, database, zone, record and token (each optional);
/// its trigger decides which of the matching calls it fires on. Every path that reaches the
/// engine (command line, dashboard, CKWS server) meets the same plan, since it lives in the store.
public struct Fault: Sendable, Hashable {
    public var id: Int64
    public var kind: FaultKind
    public var scope: DatabaseScope?
    public var zoneName: String?
    public var operation: FaultOperation?
    /// Records that must be in the call (any of them); for `partialFailure`, the records that fail.
    public var recordNames: [String]
    /// For `changeTokenExpired`: the token that has expired (nil: any token).
    public var token: String?
    public var trigger: FaultTrigger
    /// Seconds the error tells the client to wait (`retryAfter`).
    public var retryAfter: Double?
    /// For `limitExceeded`: the most items a batch may hold.
    public var itemLimit: Int?
    /// For `serverRecordChanged`: the fields the other device sets, in the CKWS `fields` shape.
    public var otherDeviceFields: String?
    /// The front ends whose calls it meets (by default the server and the command line, not
    /// the dashboard).
    public var clients: Set<FaultClient>
    /// Matching calls seen so far, and how many of them the fault fired on.
    public var seen: Int
    public var fired: Int
    public var lastFired: Date?
    public var created: Date

    public init(id: Int64 = 0, kind: FaultKind, scope: DatabaseScope? = nil, zoneName: String? = nil, operation: FaultOperation? = nil,
                recordNames: [String] = [], token: String? = nil, trigger: FaultTrigger? = nil, retryAfter: Double? = nil,
                itemLimit: Int? = nil, otherDeviceFields: String? = nil, clients: Set<FaultClient> = FaultClient.byDefault, seen: Int = 0, fired: Int = 0, lastFired: Date? = nil,
                created: Date = Date()) {
        self.id = id
        self.kind = kind
        self.scope = scope
        self.zoneName = zoneName
        self.operation = operation
        self.recordNames = recordNames
        self.token = token
        self.trigger = trigger ?? kind.defaultTrigger(token: token)
        self.retryAfter = retryAfter ?? kind.defaultRetryAfter
        self.itemLimit = kind == .limitExceeded ? (itemLimit ?? FaultKind.defaultItemLimit) : itemLimit
        self.otherDeviceFields = otherDeviceFields
        self.clients = clients
        self.seen = seen
        self.fired = fired
        self.lastFired = lastFired
        self.created = created
    }

    /// `title=Rome`, `nights=5` as the CKWS fields the other device of a `serverRecordChanged`
    /// fault sets: a value that reads as JSON is taken as JSON, any other as text; the field's
    /// type in the schema decides the rest when the fault fires.
    public static func otherDeviceFields(_ assignments: [String]) -> String {
        let members = assignments.map { assignment -> (String, JSONValue) in
            let parts = assignment.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let text = parts.count > 1 ? String(parts[1]) : ""
            let value = (try? JSONParser.parse(text)) ?? .string(text)
            return (String(parts[0]), .object([("value", value)]))
        }
        return JSONWriter.string(.object(members))
    }

    /// Whether the trigger will never fire again (a `once` or `after` fault that fired).
    public var isSpent: Bool {
        switch trigger {
        case .once, .after: return fired > 0
        case .every, .probability: return false
        }
    }

    /// What a person reads in `faults list` and the dashboard: `zoneBusy on modify in Travel, after 3, retry after 5 s`.
    public var summary: String {
        var parts = [kind.name]
        if let operation {
            parts.append("on \(operation.name)")
        } else if kind.operations != FaultOperation.allCases {
            parts.append("on " + kind.operations.map(\.name).joined(separator: "/"))
        }
        if let scope { parts.append("in the \(scope.name) database") }
        if let zoneName { parts.append("zone \(zoneName)") }
        if !recordNames.isEmpty { parts.append("record\(recordNames.count == 1 ? "" : "s") " + recordNames.joined(separator: ", ")) }
        if let token { parts.append("token \(token.prefix(12))…") }
        if let itemLimit, kind == .limitExceeded { parts.append("batches over \(itemLimit)") }
        parts.append(trigger.description)
        if let retryAfter { parts.append("retry after \(FaultKind.seconds(retryAfter))") }
        if clients != FaultClient.byDefault { parts.append("for " + clients.sorted().map(\.rawValue).joined(separator: " and ")) }
        return parts.joined(separator: ", ")
    }
}

/// Which matching calls a fault fires on.
public enum FaultTrigger: Sendable, Hashable, CustomStringConvertible {
    /// The next matching call, once.
    case once
    /// Lets `n` matching calls through, fires on the next one, once.
    case after(Int)
    /// Every `n`th matching call (`every(1)`: all of them).
    case every(Int)
    /// Each matching call with probability `p`, decided by a generator seeded with `seed` and
    /// the call's number, so a run replays exactly with the same seed.
    case probability(Double, seed: UInt64)

    public var description: String {
        switch self {
        case .once: return "once"
        case .after(let n): return "once after \(n) call\(n == 1 ? "" : "s")"
        case .every(1): return "every call"
        case .every(let n): return "every \(n) calls"
        case .probability(let p, let seed): return "p=\(p) seed \(seed)"
        }
    }

    /// Whether the `call`th matching call (from 1) fires, given how often the fault fired.
    func fires(onCall call: Int, firedBefore: Int) -> Bool {
        switch self {
        case .once: return firedBefore == 0
        case .after(let n): return firedBefore == 0 && call > n
        case .every(let n): return call % max(n, 1) == 0
        case .probability(let p, let seed):
            var generator = SeededGenerator(seed: seed ^ (UInt64(call) &* 0x9E37_79B9_7F4A_7C15))
            return Double(generator.next() >> 11) / Double(1 << 53) < p
        }
    }

}

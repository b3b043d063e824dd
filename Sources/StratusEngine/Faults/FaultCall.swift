import Foundation
import StratusCloud

/// What one engine call is about, as the fault plan matches it.
package struct FaultCall: Sendable {
    package var operation: FaultOperation
    package var scope: DatabaseScope
    /// The front end the call comes through (set from the database it is made on).
    package var client: FaultClient = .cli
    /// The zones the call touches (empty for database-wide calls).
    package var zoneNames: Set<String> = []
    /// The records saved, in the order given.
    var savedRecordNames: [String] = []
    /// Every record the call names (saves, deletes, fetches), in the order given.
    var recordNames: [String] = []
    /// The change token the call starts from.
    var token: String? = nil

    var itemCount: Int { recordNames.count }
}

/// What the fault plan does to one call: refuse it whole, fail some of its records, or have
/// another device save records first.
struct FaultOutcome: Sendable {
    var failure: CloudKitError?
    /// Per-record errors of a `partialFailure`, by record name.
    var failingRecords: [String: CloudKitError] = [:]
    /// Records another device saves before the call (`serverRecordChanged`), with the fields it sets.
    var otherDeviceSaves: [(recordName: String, fields: String?)] = []

    static let none = FaultOutcome()

    var isEmpty: Bool { failure == nil && failingRecords.isEmpty && otherDeviceSaves.isEmpty }
}

extension Fault {
    /// Whether the fault is about this call (before its trigger is asked).
    func matches(_ call: FaultCall) -> Bool {
        guard clients.contains(call.client), kind.operations.contains(call.operation), operation == nil || operation == call.operation,
              scope == nil || scope == call.scope else { return false }
        if let zoneName, !call.zoneNames.contains(zoneName) { return false }
        let named = kind == .serverRecordChanged ? call.savedRecordNames : call.recordNames
        if !recordNames.isEmpty, !named.contains(where: recordNames.contains) { return false }
        switch kind {
        case .serverRecordChanged: return !call.savedRecordNames.isEmpty
        case .partialFailure: return !call.recordNames.isEmpty
        case .limitExceeded: return call.itemCount > (itemLimit ?? FaultKind.defaultItemLimit)
        case .changeTokenExpired:
            guard let given = call.token else { return false }
            return token == nil || token == given
        default: return true
        }
    }

    /// What the fault does to a call it fired on.
    func effect(on call: FaultCall) -> FaultOutcome {
        let tag = "(fault #\(id) of the store's fault plan)"
        let reason = CloudKitError.Reason.fault(id: id)
        let wait = retryAfter.map { "try again after \(FaultKind.seconds($0))" } ?? "try again later"
        var outcome = FaultOutcome()
        switch kind {
        case .requestRateLimited:
            outcome.failure = CloudKitError(.requestRateLimited, "Too many requests: \(wait) \(tag).", reason: reason, retryAfter: retryAfter)
        case .zoneBusy:
            let zone = zoneName ?? call.zoneNames.sorted().first
            outcome.failure = CloudKitError(.zoneBusy, "\(zone.map { "Zone '\($0)'" } ?? "The zone") is busy: \(wait) \(tag).", reason: reason, retryAfter: retryAfter)
        case .serviceUnavailable:
            outcome.failure = CloudKitError(.serviceUnavailable, "The service is unavailable for a moment: \(wait) \(tag).", reason: reason, retryAfter: retryAfter)
        case .notAuthenticated:
            outcome.failure = CloudKitError(.notAuthenticated, "The request needs a signed-in user \(tag).", reason: reason)
        case .limitExceeded:
            let limit = itemLimit ?? FaultKind.defaultItemLimit
            outcome.failure = CloudKitError(.limitExceeded, "A batch of \(call.itemCount) items is over the limit of \(limit) \(tag): split it in half and retry.", reason: reason)
        case .changeTokenExpired:
            outcome.failure = CloudKitError(.changeTokenExpired, "The change token has expired (client knowledge differs from server knowledge) \(tag): fetch from the beginning, without a token.", reason: reason)
        case .partialFailure:
            let chosen = recordNames.isEmpty
                ? call.recordNames.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
                : call.recordNames.filter(recordNames.contains)
            let verb = call.operation == .fetch ? "fetched" : "written"
            for name in chosen {
                outcome.failingRecords[name] = CloudKitError(.serviceUnavailable, "Record '\(name)' was not \(verb): the service was unavailable for a moment; \(wait) \(tag).",
                                                             reason: reason, retryAfter: retryAfter)
            }
        case .serverRecordChanged:
            let chosen = recordNames.isEmpty ? Array(call.savedRecordNames.prefix(1)) : call.savedRecordNames.filter(recordNames.contains)
            outcome.otherDeviceSaves = chosen.map { ($0, otherDeviceFields) }
        }
        return outcome
    }
}

extension FaultOutcome {
    /// Adds what another fault does; the first whole-call failure wins.
    mutating func merge(_ other: FaultOutcome) {
        if failure == nil { failure = other.failure }
        failingRecords.merge(other.failingRecords) { first, _ in first }
        for save in other.otherDeviceSaves where !otherDeviceSaves.contains(where: { $0.recordName == save.recordName }) {
            otherDeviceSaves.append(save)
        }
    }

    /// One line for the fault log.
    var logMessage: String {
        if let failure { return failure.description }
        if !failingRecords.isEmpty { return "partialFailure: " + failingRecords.keys.sorted().joined(separator: ", ") + " failed" }
        return "another device saved " + otherDeviceSaves.map(\.recordName).joined(separator: ", ")
    }
}

import Foundation
import StratusCloud

/// The fault plan (each fault with how often it saw and fired) and the log of its newest
/// firings, for `faults log` and the dashboard.
package protocol FaultStorage {
    /// Adds a fault to the plan and returns its id.
    func insert(_ fault: Fault) throws -> Int64

    /// The plan in the order it was made; with `activeOnly`, only faults that can still fire.
    func all(activeOnly: Bool) throws -> [Fault]

    /// Whether any fault can still fire.
    func anyArmed() throws -> Bool

    /// Writes how often a fault saw and fired, and whether it is spent.
    func saveCounts(_ fault: Fault) throws

    /// Logs one firing (the log keeps the newest ones).
    func logFiring(_ fault: Fault, call: FaultCall, message: String) throws

    /// Firings after `id` (nil: the newest `limit`), oldest first.
    func events(after id: Int64?, limit: Int) throws -> [FaultEvent]

    /// Removes one fault, or (nil) the whole plan and its log; returns how many faults went.
    func remove(id: Int64?) throws -> Int
}

extension FaultStorage {
    /// The whole plan.
    func all() throws -> [Fault] { try all(activeOnly: false) }
}

import Foundation
import StratusEngine

/// Upload URLs handed out by `assets/upload`: each is good for one upload, for 15 minutes, to
/// the store and user that asked for it. Kept in memory: a restarted server has none, as
/// expired URLs are refused by CloudKit too.
final class AssetTickets: Sendable {
    struct Ticket: Sendable {
        var store: Store
        var expires: Date
    }

    static let lifetime: TimeInterval = 15 * 60
    private let tickets = LockedValue<[String: Ticket]>([:])

    /// A new one-time ticket for uploads into `store`.
    func issue(for store: Store, now: Date = Date()) -> String {
        let id = UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        tickets.withLock { all in
            all = all.filter { $0.value.expires > now }
            all[id] = Ticket(store: store, expires: now.addingTimeInterval(Self.lifetime))
        }
        return id
    }

    /// The ticket's store, spending the ticket; nil for an unknown, spent or expired one.
    func redeem(_ id: String, now: Date = Date()) -> Store? {
        tickets.withLock { all in
            guard let ticket = all.removeValue(forKey: id), ticket.expires > now else { return nil }
            return ticket.store
        }
    }
}

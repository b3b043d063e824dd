import Foundation

/// How a backend that several processes share tells each of them that another one committed
/// something a live view shows (PostgreSQL's LISTEN/NOTIFY). A backend without it (an SQLite
/// file) is polled instead.
package protocol StoreAnnouncements: AnyObject, Sendable {
    /// Whether announcements arrive now: false while the connection that hears them is down
    /// (callers then poll; the reconnect counts as an announcement of every topic, so what was
    /// missed meanwhile is read again).
    var isListening: Bool { get }

    /// A number that grows with every announcement of one of `topics` (and every reconnect).
    func mark(_ topics: Set<StoreTopic>) -> UInt64

    /// Blocks until ``mark(_:)`` of `topics` passes `mark` or `deadline` comes, and returns the
    /// mark then.
    func wait(_ topics: Set<StoreTopic>, after mark: UInt64, until deadline: Date) -> UInt64
}

import Foundation

/// Paces a live view (`notifications --follow`, `logs --follow`, the dashboard's live panels):
/// between two reads it waits until what the view shows may have changed. On a backend that
/// announces commits (PostgreSQL's LISTEN/NOTIFY) that is the moment another process commits,
/// and a quiet store is read only now and then; on one that does not (an SQLite file) it is the
/// polling interval.
public final class StoreWatch: @unchecked Sendable {
    /// Why ``next(stopped:)`` returned: each but `stopped` means "read again now".
    public enum Wake: Sendable, Equatable {
        /// Another process committed to a watched topic, or the connection that hears them came
        /// back after a loss (what was missed meanwhile is read again).
        case announced
        /// The interval passed: the polling interval, or on an announcing backend the rare
        /// read that keeps a view true should an announcement go astray.
        case polled
        /// The caller's `stopped` turned true.
        case stopped
    }

    private let announcements: (any StoreAnnouncements)?
    private let topics: Set<StoreTopic>
    private let polling: Duration
    private let reread: Duration
    private var seen: UInt64
    /// When ``isDue()`` last said yes (or the watch began).
    private var lastDue = Date()

    /// How often `stopped` is asked while waiting.
    private static let slice = 0.05

    /// A watch of `topics` through `announcements` (nil: polled every `polling`); on an
    /// announcing backend a quiet store is still read every `reread`.
    package init(announcements: (any StoreAnnouncements)?, topics: Set<StoreTopic>, polling: Duration, reread: Duration = .seconds(10)) {
        self.announcements = announcements
        self.topics = topics
        self.polling = polling
        self.reread = reread
        seen = announcements?.mark(topics) ?? 0
    }

    /// A watch that polls every `polling`: for a view of a container that announces nothing
    /// (one reached through CloudKit Web Services).
    public static func polled(every polling: Duration) -> StoreWatch {
        StoreWatch(announcements: nil, topics: [], polling: polling)
    }

    /// Whether the store announces commits: false for a polled one, and while an announcing
    /// backend's connection is down.
    public var isAnnounced: Bool { announcements?.isListening ?? false }

    /// Blocks until the next read is due (see ``Wake``), asking `stopped` every 50 ms so a
    /// stop signal or a cancelled job ends the wait at once.
    public func next(stopped: () -> Bool = { false }) -> Wake {
        let started = Date()
        let rereadAt = started.addingTimeInterval(Self.seconds(reread))
        let pollAt = started.addingTimeInterval(Self.seconds(polling))
        while true {
            if stopped() { return .stopped }
            let now = Date()
            if let announcements, announcements.isListening {
                if now >= rereadAt {
                    seen = announcements.mark(topics)
                    lastDue = now
                    return .polled
                }
                let mark = announcements.wait(topics, after: seen, until: min(rereadAt, now.addingTimeInterval(Self.slice)))
                if mark != seen {
                    seen = mark
                    lastDue = Date()
                    return .announced
                }
            } else {
                // Polled: nothing announces, or the connection that would is down (its
                // reconnect moves the mark, which the branch above then reports).
                if now >= pollAt {
                    lastDue = now
                    return .polled
                }
                Thread.sleep(forTimeInterval: min(pollAt.timeIntervalSince(now), Self.slice))
            }
        }
    }

    /// Whether a read is due now, without waiting: for a caller that sleeps on its own (an
    /// async server handler), asking often. Due when an announcement came since it last said
    /// so, or the interval (``next(stopped:)``'s) has passed since.
    public func isDue() -> Bool {
        let now = Date()
        if let announcements, announcements.isListening {
            let mark = announcements.mark(topics)
            guard mark != seen || now >= lastDue.addingTimeInterval(Self.seconds(reread)) else { return false }
            seen = mark
        } else {
            guard now >= lastDue.addingTimeInterval(Self.seconds(polling)) else { return false }
        }
        lastDue = now
        return true
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

extension Store {
    /// A watch of `topics` for a live view on this store, polled every `polling` where the
    /// backend announces nothing.
    public func watch(_ topics: Set<StoreTopic>, polling: Duration) -> StoreWatch {
        StoreWatch(announcements: backend.announcements, topics: topics, polling: polling)
    }
}

import Foundation

/// The thread-safe queue through which background work reports back to the UI.
///
/// Tasks and threads call ``post(_:)``; the event loop, on the thread that owns the terminal,
/// takes the messages and hands them to the app. Posting wakes a blocked loop at once.
///
/// The queue is guarded by an `NSLock` (a pthread mutex) rather than `Synchronization.Mutex`:
/// on Linux `Mutex` locks with raw futex calls that ThreadSanitizer cannot see, so it reported
/// every post and take as a race. Every access to `queue` holds `lock`, hence `@unchecked`.
public final class Mailbox<Message: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var queue: [Message] = []
    /// Signalled on every post; the loop waits on it next to terminal input.
    public let wakeup = Wakeup()

    public init() {}

    /// Queues a message for the app and wakes the loop. Callable from any thread or task.
    public func post(_ message: Message) {
        lock.withLock { queue.append(message) }
        wakeup.signal()
    }

    /// Removes and returns every queued message, oldest first.
    public func takeAll() -> [Message] {
        lock.withLock {
            let taken = queue
            queue.removeAll(keepingCapacity: true)
            return taken
        }
    }

    /// True when messages are waiting.
    public var hasMessages: Bool {
        lock.withLock { !queue.isEmpty }
    }
}

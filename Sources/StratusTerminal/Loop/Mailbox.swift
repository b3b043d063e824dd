import Synchronization

/// The thread-safe queue through which background work reports back to the UI.
///
/// Tasks and threads call ``post(_:)``; the event loop, on the thread that owns the terminal,
/// takes the messages and hands them to the app. Posting wakes a blocked loop at once.
public final class Mailbox<Message: Sendable>: Sendable {
    private let queue = Mutex<[Message]>([])
    /// Signalled on every post; the loop waits on it next to terminal input.
    public let wakeup = Wakeup()

    public init() {}

    /// Queues a message for the app and wakes the loop. Callable from any thread or task.
    public func post(_ message: Message) {
        queue.withLock { $0.append(message) }
        wakeup.signal()
    }

    /// Removes and returns every queued message, oldest first.
    public func takeAll() -> [Message] {
        queue.withLock { messages in
            let taken = messages
            messages.removeAll(keepingCapacity: true)
            return taken
        }
    }

    /// True when messages are waiting.
    public var hasMessages: Bool {
        queue.withLock { !$0.isEmpty }
    }
}

import Foundation

/// A value shared between threads (the bench's clients and the thread waiting on them) under a lock.
final class Box<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.withLock { stored } }
        _modify {
            lock.lock()
            defer { lock.unlock() }
            yield &stored
        }
    }
}

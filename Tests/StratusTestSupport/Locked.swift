import Foundation

/// A value shared between threads (a test's worker threads, the threads draining a child
/// process's pipes), guarded by an `NSLock`, which ThreadSanitizer understands.
///
/// Every access holds `lock`, hence `@unchecked Sendable`.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    private var wasSet = false

    public init(_ value: Value) { stored = value }

    /// Replaces the value and notes that it was set (``isSet``).
    public func set(_ value: Value) { lock.withLock { stored = value; wasSet = true } }
    /// Changes the value in place.
    public func update(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }
    /// Reads or changes the value under the lock and returns what `body` returns.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&stored) }
    }
    /// A copy of the value.
    public var value: Value { lock.withLock { stored } }
    /// Whether ``set(_:)`` was called.
    public var isSet: Bool { lock.withLock { wasSet } }
}

import Foundation
import StratusCloud

/// A value shared between threads, guarded by an `NSLock`: `Synchronization.Mutex`'s API on a
/// lock ThreadSanitizer understands.
///
/// On Linux `Mutex` hands a contended lock over inside futex calls ThreadSanitizer cannot see,
/// so it reported accesses under it as races (and a sanitized run counts those as failures).
/// Every access to `value` holds `lock`, hence `@unchecked Sendable`.
package final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) { self.value = value }

    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&value) }
    }
}

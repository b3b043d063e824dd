#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A self-pipe that lets any thread wake a loop blocked in `poll()` on terminal input.
///
/// Writing one byte is async-signal and thread safe; the loop polls ``readDescriptor`` next
/// to stdin and calls ``drain()`` when it becomes readable.
public final class Wakeup: Sendable {
    /// Poll this for readability; -1 if the pipe could not be made (the loop then relies on
    /// its poll timeout).
    public let readDescriptor: Int32
    /// The end ``signal()`` writes to; a signal handler may write a byte to it directly.
    let writeDescriptor: Int32

    public init() {
        var descriptors: [Int32] = [-1, -1]
        if pipe(&descriptors) == 0 {
            for descriptor in descriptors {
                _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
                _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            }
        }
        readDescriptor = descriptors[0]
        writeDescriptor = descriptors[1]
    }

    deinit {
        if readDescriptor >= 0 { close(readDescriptor) }
        if writeDescriptor >= 0 { close(writeDescriptor) }
    }

    /// Wakes the loop. A full pipe already means "wake up", so a failed write is fine.
    public func signal() {
        guard writeDescriptor >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(writeDescriptor, &byte, 1)
    }

    /// Empties the pipe so the next poll blocks again.
    public func drain() {
        guard readDescriptor >= 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(readDescriptor, &buffer, buffer.count) > 0 {}
    }
}

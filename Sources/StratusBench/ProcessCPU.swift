import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// This process's CPU time (user and system, every thread), for what a server spends per
/// request whatever the machine's other work: wall time on a shared machine moves with it.
enum ProcessCPU {
    static func seconds() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// The CPU seconds this process spent while `body` ran.
    static func measure(_ body: () throws -> Void) rethrows -> Double {
        let before = seconds()
        try body()
        return seconds() - before
    }
}

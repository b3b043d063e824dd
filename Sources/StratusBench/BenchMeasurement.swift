import Foundation

/// Timing and memory readings for the benchmark.
enum BenchMeasurement {
    /// Milliseconds of each of `runs` timed runs of `body`, after one untimed warm-up run.
    static func times(runs: Int, _ body: () throws -> Void) rethrows -> [Double] {
        try body()
        var results: [Double] = []
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            results.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
        }
        return results
    }

    /// Flushes every file's dirty pages before a timed write, so one side's writing does not
    /// fall on the next one's commits: the import floor, timed just after the import wrote
    /// 250 MB, measured 1.3 to 2.0 s as the kernel wrote those back at the same time.
    static func settleDisk() {
        sync()
    }

    static func once(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
    }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    /// Starts a new peak-memory window (Linux: writing 5 to clear_refs resets VmHWM).
    static func resetPeakMemory() {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }

    /// The process's peak resident memory since the last reset, in MiB (nil where unknown).
    /// Bytes this process has sent to storage so far (`write_bytes` in `/proc/self/io`): what
    /// a workload writes is the difference around it. Nil where the kernel does not say.
    static func bytesWritten() -> Double? {
        guard let io = try? String(contentsOfFile: "/proc/self/io", encoding: .utf8) else { return nil }
        for line in io.split(separator: "\n") where line.hasPrefix("write_bytes:") {
            return line.split(separator: " ").compactMap { Double($0) }.first
        }
        return nil
    }

    /// A store's size on disk: its file and its write-ahead log.
    static func storeBytes(_ path: String) -> Double {
        ["", "-wal"].reduce(0) { total, suffix in
            total + Double((try? FileManager.default.attributesOfItem(atPath: path + suffix)[.size] as? Int) ?? 0)
        }
    }

    static func peakMemoryMiB() -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let kilobytes = line.split(separator: " ").compactMap { Double($0) }.first
            return kilobytes.map { $0 / 1024 }
        }
        return nil
    }
}

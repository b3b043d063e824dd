import Foundation
import StratusEngine
import StratusModel
import StratusTerminal
import StratusCloud
import StratusDashboard
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Drives the real dashboard (``DashboardApp`` in an ``EventLoop``, effects on background
/// threads, the engine's query runner) on an in-memory terminal and times it, for
/// `stratus bench`: start to the first page of Query results drawn, and each key of a
/// scripted session to its frame.
public enum DashboardProbe {
    public struct Result: Sendable {
        /// From creating the app to the first frame that shows query results.
        public var firstPageMilliseconds: Double
        /// From creating the app to its first frame (before any result).
        public var firstFrameMilliseconds: Double
        /// Each key's handling and frame, in milliseconds: median, 95th percentile and max.
        public var keyMedianMilliseconds: Double
        public var keyP95Milliseconds: Double
        public var keyMaxMilliseconds: Double
        /// Keys timed (the script's length).
        public var keys: Int
        /// Rows the Query tab had loaded at the end (pages loaded by paging down).
        public var rowsLoaded: Int
        /// Frames drawn in all.
        public var frames: Int
        /// The process's peak resident memory (Linux VmHWM), in MiB; nil where unknown.
        public var peakMemoryMiB: Double?
    }

    public struct ProbeError: Error, CustomStringConvertible {
        public var description: String
    }

    /// The scripted session: moving through results (a row, a page, top and bottom), opening
    /// and closing the inspector, and switching tabs (numbers and `[` `]`), `count` keys long.
    public static func script(count: Int) -> [Key] {
        let cycle: [Key] = [
            .down, .down, .down, .enter, .down, .down, .escape, .down, .pageDown, .up, .up,
            .char("]"), .char("]"), .char("["), .char("["), .pageDown, .down, .enter, .escape,
            .char("5"), .down, .down, .char("1"), .char("G"), .up, .char("g"), .char("4"), .down, .char("1"), .pageUp,
        ]
        return (0..<count).map { cycle[$0 % cycle.count] }
    }

    /// Runs the dashboard on `store` at `size` (default 120x40) with the Query tab on
    /// `recordType` in `zone`, waits for the first page, then plays `keys` scripted keys,
    /// letting background work settle after each (that time is not counted).
    ///
    /// - Throws: ``ProbeError`` when the first page does not come within `timeout`, or the
    ///   query fails.
    public static func run(store: Store, zone: ZoneID, recordType: String, keys: Int = 200,
                           size: Size = Size(width: 120, height: 40), timeout: Duration = .seconds(60)) throws -> Result {
        let clock = ContinuousClock()
        let started = clock.now
        let (loop, mailbox) = startDashboard(store: store, zone: zone, recordType: recordType, size: size)
        let firstFrame = clock.now - started

        // Until the first page is on screen.
        let deadline = started + timeout
        var firstPage: Duration?
        while firstPage == nil {
            if let error = loop.app.state.query.error { throw ProbeError(description: "the query failed: \(error)") }
            guard clock.now < deadline else { throw ProbeError(description: "no first page within \(timeout)") }
            wait(for: mailbox, until: deadline, clock: clock)
            loop.step(timeout: .zero)
            if !loop.app.state.query.records.isEmpty, loop.app.state.query.loadingJob == nil {
                firstPage = clock.now - started
            }
        }
        settle(loop, mailbox: mailbox, clock: clock, deadline: clock.now + timeout)

        var times: [Double] = []
        times.reserveCapacity(keys)
        for key in script(count: keys) {
            let before = clock.now
            loop.send(.key(key))
            times.append(milliseconds(clock.now - before))
            settle(loop, mailbox: mailbox, clock: clock, deadline: clock.now + timeout)
        }
        let rows = loop.app.state.query.records.count
        loop.send(.key(.char("q")))
        times.sort()
        func percentile(_ p: Double) -> Double {
            times.isEmpty ? 0 : times[min(times.count - 1, Int((Double(times.count - 1) * p).rounded()))]
        }
        return Result(firstPageMilliseconds: milliseconds(firstPage!), firstFrameMilliseconds: milliseconds(firstFrame),
                      keyMedianMilliseconds: percentile(0.5), keyP95Milliseconds: percentile(0.95), keyMaxMilliseconds: times.last ?? 0,
                      keys: times.count, rowsLoaded: rows, frames: loop.frameCount, peakMemoryMiB: peakMemoryMiB())
    }

    /// What `G` costs on a large result: from creating the app to the match count shown (from
    /// the indexes when they can count, else from the walk of the whole result), and
    /// to the last record of the whole result drawn (`G` pressed as soon as the first page is).
    public struct LastPageResult: Sendable {
        public var countMilliseconds: Double
        public var lastPageMilliseconds: Double
        public var matches: Int
        public var peakMemoryMiB: Double?
    }

    public static func runToLastRecord(store: Store, zone: ZoneID, recordType: String, size: Size = Size(width: 120, height: 40),
                                       timeout: Duration = .seconds(900)) throws -> LastPageResult {
        let clock = ContinuousClock()
        let started = clock.now
        let (loop, mailbox) = startDashboard(store: store, zone: zone, recordType: recordType, size: size)
        let deadline = started + timeout
        var pressed = false
        var counted: Duration?
        // The last record is drawn first from the result read from its end (before the count),
        // or, when the count comes first, from its page.
        var lastDrawn: Duration?
        while true {
            if let error = loop.app.state.query.error { throw ProbeError(description: "the query failed: \(error)") }
            guard clock.now < deadline else { throw ProbeError(description: "the last record was not drawn within \(timeout)") }
            wait(for: mailbox, until: deadline, clock: clock)
            loop.step(timeout: .zero)
            let query = loop.app.state.query
            if !pressed, !query.records.isEmpty {
                loop.send(.key(.char("G")))
                pressed = true
            } else if pressed, query.tail == nil, let matches = query.matchCount, query.list.selected != matches - 1, query.loadingJob == nil {
                // The query ran again after G (the schema arrived and it re-ran with the
                // type's columns): G again, as a person would.
                loop.send(.key(.char("G")))
            }
            if lastDrawn == nil, pressed, let tail = query.tail, query.list.selected == tail.count - 1 {
                loop.render()
                lastDrawn = clock.now - started
            }
            // The header's number: from the indexes when they can count, else from the walk.
            if counted == nil, (query.matchCount ?? query.indexedCount) != nil { counted = clock.now - started }
            if pressed, let matches = query.matchCount, query.list.selected == matches - 1, query.record(at: matches - 1) != nil,
               query.loadingJob == nil {
                loop.render()
                let now = clock.now - started
                return LastPageResult(countMilliseconds: milliseconds(counted ?? now), lastPageMilliseconds: milliseconds(lastDrawn ?? now),
                                      matches: matches, peakMemoryMiB: peakMemoryMiB())
            }
        }
    }

    /// The real app in an event loop on an in-memory terminal, started and drawn once.
    static func startDashboard(store: Store, zone: ZoneID, recordType: String, size: Size)
        -> (EventLoop<DashboardApp>, Mailbox<DashboardMail>) {
        let services = DashboardServices(cloud: LocalCloudService(store: store, device: DashboardServices.defaultDevice))
        let mailbox = Mailbox<DashboardMail>()
        let backend = MemoryBackend(width: size.width, height: size.height, colorDepth: .trueColor)
        var app = DashboardApp(state: DashboardState(storePath: store.path, zone: zone, recordType: recordType, size: size),
                               runner: EffectRunner(services: services), mailbox: mailbox)
        app.start()
        let loop = EventLoop(app: app, backend: backend, mailbox: mailbox)
        loop.render()
        return (loop, mailbox)
    }

    /// Delivers results until no job runs (or the deadline passes).
    static func settle(_ loop: EventLoop<DashboardApp>, mailbox: Mailbox<DashboardMail>, clock: ContinuousClock,
                       deadline: ContinuousClock.Instant) {
        loop.runUntilIdle()
        while !loop.app.state.jobs.isEmpty, clock.now < deadline {
            wait(for: mailbox, until: deadline, clock: clock)
            loop.runUntilIdle()
        }
    }

    /// Sleeps until something is posted (the mailbox's wake-up pipe is readable) or `deadline`.
    static func wait(for mailbox: Mailbox<DashboardMail>, until deadline: ContinuousClock.Instant, clock: ContinuousClock) {
        guard !mailbox.hasMessages else { return }
        let remaining = milliseconds(deadline - clock.now)
        var descriptor = pollfd(fd: mailbox.wakeup.readDescriptor, events: Int16(POLLIN), revents: 0)
        _ = poll(&descriptor, 1, Int32(max(1, min(remaining, 100))))
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }

    /// Linux's VmHWM from /proc/self/status, in MiB.
    static func peakMemoryMiB() -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let digits = line.split(separator: " ").dropFirst().first.flatMap { Double($0) }
            return digits.map { $0 / 1024 }
        }
        return nil
    }
}

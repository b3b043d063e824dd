import Foundation
import StratusEngine
import StratusRemote

/// The pull's progress on standard error: one line redrawn in place on a terminal; otherwise
/// a plain line of counts as each zone (or record type) is done.
final class PullProgress {
    let isTerminal = isatty(STDERR_FILENO) == 1
    private var lastDraw = Date.distantPast

    /// The pull's events, drawn here.
    var events: PullEvents {
        PullEvents(waiting: PullProgress.waiting, note: { Output.warn($0) }, progress: { [self] in update($0, zone: $1) },
                   finished: { [self] in finished($0, from: $1, to: $2) })
    }

    func update(_ tally: PullTally, zone: String) {
        guard isTerminal, Date().timeIntervalSince(lastDraw) >= 0.1 else { return }
        lastDraw = Date()
        let line = "\rpull \(zone): \(tally.recordsNew + tally.recordsChanged) records written, \(tally.recordsDeleted) deleted, "
            + "\(tally.assetsDownloaded) assets (\(PullTally.bytes(tally.assetBytes)))\u{1B}[K"
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// Ends a zone's (or type's) stretch of work, with what it changed (`before`: the tally
    /// when it began); a stretch that changed nothing (a type with no records) goes unsaid.
    func finished(_ what: String, from before: PullTally, to now: PullTally) {
        if isTerminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        lastDraw = .distantPast
        let changed = (now.recordsNew, now.recordsChanged, now.recordsDeleted) != (before.recordsNew, before.recordsChanged, before.recordsDeleted)
        guard changed else { return }
        Output.warn("pulled \(what): \(now.recordsNew - before.recordsNew) new, \(now.recordsChanged - before.recordsChanged) changed, "
                    + "\(now.recordsDeleted - before.recordsDeleted) deleted records, \(now.assetsDownloaded - before.assetsDownloaded) assets")
    }

    /// Waits out a throttled answer on the calling thread, saying so first.
    struct Waiter: ThrottleWaiter {
        func willWait(_ wait: ThrottleWait) { PullProgress.waiting(wait) }

        func wait(seconds: Double) -> Bool {
            Thread.sleep(forTimeInterval: max(0, seconds))
            return true
        }
    }

    /// Says a throttled request is being waited out.
    static func waiting(_ wait: CKWSClient.RetryWait) {
        let seconds = wait.seconds == wait.seconds.rounded() ? "\(Int(wait.seconds)) s" : String(format: "%.1f s", wait.seconds)
        Output.warn("waiting \(seconds): the server answered \(wait.code) (retry \(wait.attempt) of \(wait.attempts))")
    }
}

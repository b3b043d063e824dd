import Foundation

/// How a child process ended and what it printed.
public struct ProcessOutcome: Sendable {
    /// The exit status, or the signal's number when ``signalled``.
    public var status: Int32
    /// Standard output, as bytes.
    public var stdoutData: Data
    /// Standard error, as bytes.
    public var stderrData: Data
    /// Killed by a signal rather than exiting (a crash, or the kill at a timeout).
    public var signalled: Bool
    /// It ran past its time limit and was killed.
    public var timedOut: Bool

    public init(status: Int32, stdoutData: Data, stderrData: Data, signalled: Bool = false, timedOut: Bool = false) {
        self.status = status
        self.stdoutData = stdoutData
        self.stderrData = stderrData
        self.signalled = signalled
        self.timedOut = timedOut
    }

    /// Standard output, as UTF-8 text.
    public var stdout: String { String(decoding: stdoutData, as: UTF8.self) }
    /// Standard error, as UTF-8 text.
    public var stderr: String { String(decoding: stderrData, as: UTF8.self) }
}

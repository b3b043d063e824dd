import Foundation
import StratusTerminal

/// The dashboard as a ``TerminalApp``: events and posted results go through
/// ``Dashboard/update(_:_:)``; the effects it returns go to the ``EffectRunner``, whose
/// results come back through the mailbox.
public struct DashboardApp: TerminalApp {
    public typealias Message = DashboardMail

    public private(set) var state: DashboardState
    let runner: EffectRunner
    let mailbox: Mailbox<DashboardMail>
    let trace: DashboardTrace?

    public init(state: DashboardState, runner: EffectRunner, mailbox: Mailbox<DashboardMail>, tracePath: String? = nil) {
        self.state = state
        self.runner = runner
        self.mailbox = mailbox
        self.trace = tracePath.map(DashboardTrace.init(path:))
    }

    public var wantsQuit: Bool { state.wantsQuit }
    public var wantsSuspend: Bool { state.wantsSuspend }

    public mutating func resumed() {
        state.wantsSuspend = false
        state.status = StatusMessage("Back from the shell.")
    }

    /// Starts the first loads (zones, schema, the first query).
    public mutating func start() {
        let mailbox = self.mailbox
        runner.services.throttle?.connect { mailbox.post(DashboardMail($0)) }
        perform(Dashboard.start(&state))
    }

    public mutating func handle(_ event: Event) {
        switch event {
        case .key(let key):
            trace?.keyReceived()
            apply(.key(key))
        case .paste(let text): apply(.paste(text))
        case .mouse(let event): apply(.mouse(event))
        case .resize(let width, let height): apply(.resize(Size(width: width, height: height)))
        case .tick: apply(.tick)
        }
    }

    public mutating func receive(_ mail: DashboardMail) {
        receive(mail.message)
    }

    mutating func receive(_ message: DashboardMessage) {
        if case .query(.page(_, .success, nil, _)) = message { trace?.firstPageArrived() }
        apply(message)
    }

    public func render(into canvas: inout Canvas) {
        DashboardView.render(state, into: &canvas)
        trace?.frameRendered(hasRows: !state.query.records.isEmpty)
    }

    mutating func apply(_ message: DashboardMessage) {
        perform(Dashboard.update(&state, message))
    }

    func perform(_ effects: [Effect]) {
        let mailbox = self.mailbox
        for effect in effects {
            runner.perform(effect) { mailbox.post(DashboardMail($0)) }
        }
    }
}

/// A result of background work on its way through the event loop's mailbox back to the app.
/// Opaque outside the dashboard: its messages are the tabs' own vocabulary, which only
/// ``Dashboard/update(_:_:)`` reads.
public struct DashboardMail: Sendable {
    let message: DashboardMessage

    init(_ message: DashboardMessage) {
        self.message = message
    }
}

/// Timings for the performance notes, written when `STRATUS_DASHBOARD_TRACE` names a file:
/// start to first frame, to first page drawn, and each key to its frame.
final class DashboardTrace {
    private let path: String
    private let clock = ContinuousClock()
    private let started: ContinuousClock.Instant
    private var keyAt: ContinuousClock.Instant?
    private var firstFrame = false
    private var firstPage = false
    private var pageArrived = false

    init(path: String) {
        self.path = path
        started = clock.now
        _ = FileManager.default.createFile(atPath: path, contents: nil)
    }

    func keyReceived() { keyAt = clock.now }
    func firstPageArrived() { pageArrived = true }

    func frameRendered(hasRows: Bool) {
        let now = clock.now
        if !firstFrame {
            firstFrame = true
            write("first-frame \(Self.milliseconds(now - started))")
        }
        if pageArrived, !firstPage, hasRows {
            firstPage = true
            write("first-page-drawn \(Self.milliseconds(now - started))")
        }
        if let keyAt {
            write("key-to-frame \(Self.milliseconds(now - keyAt))")
            self.keyAt = nil
        }
    }

    private func write(_ line: String) {
        guard let handle = FileHandle(forWritingAtPath: path) else { return }
        handle.seekToEndOfFile()
        handle.write(Data((line + "\n").utf8))
        try? handle.close()
    }

    static func milliseconds(_ duration: Duration) -> String {
        String(format: "%.2f", Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15)
    }
}

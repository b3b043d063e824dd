/// Runs a ``TerminalApp`` against a ``Backend``: input and posted messages in, frames out.
///
/// Everything here happens on the calling thread, which must be the only one touching the
/// terminal; other threads talk to the app through ``mailbox``. ``run()`` blocks until the
/// app wants to quit. Tests instead call ``step(timeout:)`` or ``runUntilIdle()`` with a
/// ``MemoryBackend``: no threads, no sleeps.
public final class EventLoop<App: TerminalApp> {
    /// The app's current state (read it in tests).
    public private(set) var app: App
    public let backend: any Backend
    /// Where background work posts messages for the app.
    public let mailbox: Mailbox<App.Message>
    /// If set, the app gets a `.tick` event this often while ``run()`` runs.
    public var tickInterval: Duration?
    /// Frames drawn so far.
    public private(set) var frameCount = 0

    private var needsRender = true
    private let clock = ContinuousClock()

    public init(app: App, backend: any Backend, mailbox: Mailbox<App.Message> = Mailbox(), tickInterval: Duration? = nil) {
        self.app = app
        self.backend = backend
        self.mailbox = mailbox
        self.tickInterval = tickInterval
    }

    /// Takes over the terminal, draws, and handles input and messages until the app wants to
    /// quit; the terminal is restored on every way out. Throws ``TerminalSignal`` (after the
    /// terminal is restored) when SIGINT, SIGTERM or SIGHUP arrived: exit with its
    /// ``TerminalSignal/exitCode``.
    public func run() throws {
        try backend.setUp()
        defer { backend.tearDown() }
        render()
        var nextTick = tickInterval.map { clock.now + $0 }
        while !app.wantsQuit {
            if let signal = backend.pendingSignal { throw TerminalSignal(signal: signal) }
            let timeout = nextTick.map { max(.zero, $0 - clock.now) }
            step(timeout: timeout)
            if let due = nextTick, clock.now >= due, !app.wantsQuit {
                tick()
                nextTick = tickInterval.map { clock.now + $0 }
            }
        }
    }

    /// One round: delivers posted messages, handles at most one input event (waiting up to
    /// `timeout` for it, nil meaning until input or a post), and draws a frame if anything
    /// changed. Returns true if something was handled.
    @discardableResult
    public func step(timeout: Duration? = .zero) -> Bool {
        var handled = deliverMessages()
        if !app.wantsQuit, let event = backend.readEvent(timeout: handled ? .zero : timeout, wakeup: mailbox.wakeup) {
            app.handle(event)
            handled = true
            if app.wantsSuspend {
                backend.suspend()
                app.resumed()
            }
        }
        if deliverMessages() { handled = true }
        if handled || needsRender { render() }
        return handled
    }

    /// Steps until there is no input or message left (or the app wants to quit), then makes
    /// sure the screen shows the latest state. Returns the number of steps that did something.
    @discardableResult
    public func runUntilIdle(maxSteps: Int = 100_000) -> Int {
        var steps = 0
        while steps < maxSteps, !app.wantsQuit, step(timeout: .zero) {
            steps += 1
        }
        if needsRender { render() }
        return steps
    }

    /// Delivers a `.tick` event and redraws (``run()`` does this every ``tickInterval``).
    public func tick() {
        app.handle(.tick)
        render()
    }

    /// Feeds one event straight to the app and redraws, bypassing the backend's input.
    public func send(_ event: Event) {
        app.handle(event)
        render()
    }

    /// Draws the app's current state as a new frame.
    public func render() {
        var canvas = Canvas(size: backend.size)
        app.render(into: &canvas)
        backend.draw(canvas)
        frameCount += 1
        needsRender = false
    }

    /// Hands every posted message to the app; true if there were any.
    private func deliverMessages() -> Bool {
        mailbox.wakeup.drain()
        let messages = mailbox.takeAll()
        for message in messages {
            app.receive(message)
        }
        return !messages.isEmpty
    }
}

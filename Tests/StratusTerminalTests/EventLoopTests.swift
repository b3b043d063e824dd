import Testing
@testable import StratusTerminal
#if canImport(Glibc)
import Glibc
#endif

/// A tiny app: a counter moved by keys, a status line fed by background messages.
struct CounterApp: TerminalApp {
    enum Message: Sendable, Equatable {
        case loaded(String)
    }

    var count = 0
    var status = "idle"
    var events: [Event] = []
    var wantsQuit = false

    mutating func handle(_ event: Event) {
        events.append(event)
        switch event {
        case .key(.char("+")), .key(.up): count += 1
        case .key(.char("-")), .key(.down): count -= 1
        case .key(.char("q")), .key(.ctrl("c")): wantsQuit = true
        case .paste(let text): status = "pasted \(text)"
        default: break
        }
    }

    mutating func receive(_ message: Message) {
        switch message {
        case .loaded(let text): status = text
        }
    }

    func render(into canvas: inout Canvas) {
        let inner = canvas.box(canvas.bounds, title: "Counter")
        canvas.put("count: \(count)", x: inner.x, y: inner.y, style: Style(.bold))
        canvas.put(status, x: inner.x, y: inner.y + 1, maxWidth: inner.width)
    }
}

@Suite struct EventLoopTests {
    @Test func keysUpdateStateAndTheScreen() {
        let backend = MemoryBackend(width: 20, height: 4)
        let loop = EventLoop(app: CounterApp(), backend: backend)
        loop.render()
        #expect(backend.text == "┌─ Counter ────────┐\n│count: 0          │\n│idle              │\n└──────────────────┘")
        backend.type("++-+")
        backend.enqueue(keys: .up)
        #expect(loop.runUntilIdle() == 5)
        #expect(loop.app.count == 3)
        #expect(backend.screen?.lines()[1] == "│count: 3          │")
        // Changing one digit rewrote one cell.
        backend.enqueue(keys: .up)
        loop.runUntilIdle()
        #expect(backend.lastChangedCells == 1)
    }

    @Test func quitStopsProcessing() {
        let backend = MemoryBackend(width: 20, height: 4)
        let loop = EventLoop(app: CounterApp(), backend: backend)
        backend.type("+q+")
        loop.runUntilIdle()
        #expect(loop.app.wantsQuit)
        #expect(loop.app.count == 1)
        #expect(backend.pendingEvents == [.key(.char("+"))])
    }

    @Test func resizeReachesTheAppAndTheNextFrameHasTheNewSize() {
        let backend = MemoryBackend(width: 20, height: 4)
        let loop = EventLoop(app: CounterApp(), backend: backend)
        loop.render()
        backend.resize(width: 30, height: 5)
        loop.runUntilIdle()
        #expect(loop.app.events.last == .resize(width: 30, height: 5))
        #expect(backend.screen?.gridSize == Size(width: 30, height: 5))
        #expect(backend.lastChangedCells == 150)
    }

    @Test func runStopsWhenTheAppQuitsAndRestoresTheTerminal() throws {
        let backend = MemoryBackend(width: 20, height: 4)
        let loop = EventLoop(app: CounterApp(), backend: backend)
        backend.type("++")
        backend.enqueue(keys: .ctrl("c"))
        try loop.run()
        #expect(loop.app.count == 2)
        #expect(!backend.isSetUp)
        #expect(backend.text.contains("count: 2"))
    }

    @Test func aCaughtSignalEndsTheLoopAfterRestoringTheTerminal() throws {
        let backend = MemoryBackend(width: 20, height: 4)
        let loop = EventLoop(app: CounterApp(), backend: backend)
        backend.type("+")
        backend.pendingSignal = SIGTERM
        #expect(throws: TerminalSignal(signal: SIGTERM)) { try loop.run() }
        #expect(!backend.isSetUp)
        #expect(TerminalSignal(signal: SIGTERM).exitCode == 143)
        #expect(TerminalSignal(signal: SIGHUP).exitCode == 129)
    }

    @Test func messagePostedFromAnotherThreadArrives() async {
        let backend = MemoryBackend(width: 20, height: 4)
        let mailbox = Mailbox<CounterApp.Message>()
        let loop = EventLoop(app: CounterApp(), backend: backend, mailbox: mailbox)
        await Task.detached {
            mailbox.post(.loaded("42 records"))
        }.value
        #expect(mailbox.hasMessages)
        loop.runUntilIdle()
        #expect(loop.app.status == "42 records")
        #expect(backend.screen?.lines()[2] == "│42 records        │")
        #expect(!mailbox.hasMessages)
    }

    @Test func postingWakesAPollOnTheMailbox() async throws {
        let mailbox = Mailbox<Int>()
        let descriptor = mailbox.wakeup.readDescriptor
        #expect(descriptor >= 0)
        #expect(Self.readable(descriptor, waitingMilliseconds: 0) == false)
        await Task.detached { mailbox.post(7) }.value
        #expect(Self.readable(descriptor, waitingMilliseconds: 1000))
        #expect(mailbox.takeAll() == [7])
        mailbox.wakeup.drain()
        #expect(Self.readable(descriptor, waitingMilliseconds: 0) == false)
    }

    @Test func ticksAndPastesReachTheApp() {
        let backend = MemoryBackend(width: 20, height: 4)
        let loop = EventLoop(app: CounterApp(), backend: backend)
        loop.tick()
        backend.enqueue(.paste("abc"))
        loop.runUntilIdle()
        #expect(loop.app.events == [.tick, .paste("abc")])
        #expect(loop.app.status == "pasted abc")
    }

    static func readable(_ descriptor: Int32, waitingMilliseconds: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, waitingMilliseconds) == 1
    }
}

/// An app that asks to be suspended on Ctrl-Z and counts its resumptions.
struct SuspendingApp: TerminalApp {
    typealias Message = Never
    var wantsQuit = false
    var wantsSuspend = false
    var resumptions = 0

    mutating func handle(_ event: Event) {
        if case .key(.ctrl("z")) = event { wantsSuspend = true }
    }

    mutating func receive(_ message: Never) {}

    mutating func resumed() {
        wantsSuspend = false
        resumptions += 1
    }

    func render(into canvas: inout Canvas) {
        canvas.put("resumed \(resumptions)", x: 0, y: 0)
    }
}

@Suite struct SuspendTests {
    @Test func ctrlZSuspendsThroughTheBackendAndTheAppHearsItResumed() {
        let backend = MemoryBackend(width: 20, height: 2)
        let loop = EventLoop(app: SuspendingApp(), backend: backend)
        backend.enqueue(keys: .ctrl("z"))
        loop.runUntilIdle()
        #expect(backend.suspendCount == 1)
        #expect(loop.app.resumptions == 1)
        #expect(!loop.app.wantsSuspend)
        #expect(backend.text.hasPrefix("resumed 1"), "the frame after resuming is drawn")
        backend.enqueue(keys: .char("x"))
        loop.runUntilIdle()
        #expect(backend.suspendCount == 1, "other keys do not suspend")
    }
}

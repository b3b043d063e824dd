import Testing
@testable import StratusTerminal

@Suite struct BackendTests {
    @Test func memoryBackendCountsOnlyChangedCells() {
        let backend = MemoryBackend(width: 20, height: 5)
        var frame = Canvas(size: backend.size)
        frame.put("hello", x: 0, y: 0)
        backend.draw(frame)
        #expect(backend.lastChangedCells == 100)  // first frame: everything
        backend.draw(frame)
        #expect(backend.lastChangedCells == 0)  // same frame: nothing
        frame.put("J", x: 0, y: 0)
        frame.put("!", x: 19, y: 4, style: Style(.bold))
        backend.draw(frame)
        #expect(backend.lastChangedCells == 2)
        frame.put("漢", x: 5, y: 2)
        backend.draw(frame)
        #expect(backend.lastChangedCells == 2)  // lead + continuation
        #expect(backend.drawCount == 4)
        #expect(backend.text == "Jello\n\n     漢\n\n                   !")
    }

    @Test func memoryBackendResizeRedrawsEverythingAndReportsTheSize() {
        let backend = MemoryBackend(width: 4, height: 2)
        backend.draw(Canvas(size: backend.size))
        backend.resize(width: 6, height: 3)
        #expect(backend.readEvent(timeout: nil, wakeup: nil) == .resize(width: 6, height: 3))
        #expect(backend.readEvent(timeout: nil, wakeup: nil) == nil)
        backend.draw(Canvas(size: backend.size))
        #expect(backend.lastChangedCells == 18)
    }

    @Test func memoryBackendRecordsTheCursor() {
        let backend = MemoryBackend(width: 10, height: 2)
        var frame = Canvas(size: backend.size)
        frame.showCursor(x: 3, y: 1)
        backend.draw(frame)
        #expect(backend.cursor == Point(x: 3, y: 1))
        backend.setCursor(nil)
        #expect(backend.cursor == nil)
    }

    @Test func terminalCheckRefusesPipesAndDumbTerminals() {
        let pipe = TerminalCheck.check(environment: ["TERM": "xterm"], stdinIsTTY: true, stdoutIsTTY: false)
        #expect(pipe?.exitCode == 2)
        #expect(pipe?.message.contains("stdout is not a terminal") == true)
        let dumb = TerminalCheck.check(environment: ["TERM": "dumb"], stdinIsTTY: true, stdoutIsTTY: true)
        #expect(dumb?.message.contains("TERM=dumb") == true)
        let unset = TerminalCheck.check(environment: [:], stdinIsTTY: true, stdoutIsTTY: true)
        #expect(unset?.message.contains("TERM is not set") == true)
        #expect(TerminalCheck.check(environment: ["TERM": "xterm-256color"], stdinIsTTY: true, stdoutIsTTY: true) == nil)
    }
}

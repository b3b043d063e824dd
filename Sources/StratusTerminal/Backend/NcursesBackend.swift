import CNcurses
import Foundation

/// The real terminal, through ncursesw.
///
/// Owns the screen from ``setUp()`` to ``tearDown()`` and must be used from one thread.
/// Writes only the cells that changed since the previous frame, then refreshes once. Input is
/// read with `get_wch` in no-delay mode after `poll()` on stdin and the loop's wake-up pipe,
/// so a posted message wakes it immediately. Raw mode: Ctrl-C arrives as `ctrl("c")`.
/// SIGINT/SIGTERM/SIGHUP from outside are noted by a handler that only wakes the poll (a
/// self-pipe); ``pendingSignal`` then ends the loop, which restores the terminal normally.
public final class NcursesBackend: Backend {
    /// Why the terminal could not be started.
    public struct StartError: Error, CustomStringConvertible, Sendable {
        public var message: String
        public var description: String { message }
    }

    public private(set) var size = Size(width: 80, height: 24)
    /// Known for sure after ``setUp()`` (which may be called before ``EventLoop/run()``; a
    /// second call does nothing). Styles are stepped down to it as cells are written, so
    /// frames may use any colour; NO_COLOR turns coloured backgrounds into reverse video.
    public private(set) var colorDepth = ColorDepth.none
    /// Cells written by the last ``draw(_:)``.
    public private(set) var lastChangedCells = 0

    private let environment: [String: String]
    private let bracketedPaste: Bool
    private let mouse: Bool
    private let escapeDelayMilliseconds: Int32
    private var screen: OpaquePointer?
    private var previous: Canvas?
    private var colors = CursesColorPairs(colorCount: 0)
    private var decoder: KeyDecoder
    private var queued: [Event] = []
    private var cursorVisible: Bool?
    /// Written to by the signal handler, polled next to stdin.
    private let signalWakeup = Wakeup()

    /// - Parameters:
    ///   - environment: read for `NO_COLOR` and `TERM`.
    ///   - bracketedPaste: ask the terminal to mark pasted text (delivered as `.paste`).
    ///   - escapeDelay: how long a lone Esc waits for a following key (ncurses' default is 1 s).
    ///   - mouse: report clicks and the wheel as `.mouse` events (the terminal then keeps them
    ///     from its own selection; Shift-drag still selects in most terminals).
    public init(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        bracketedPaste: Bool = true,
        escapeDelay: Duration = .milliseconds(25),
        mouse: Bool = false
    ) {
        self.environment = environment
        self.bracketedPaste = bracketedPaste
        self.mouse = mouse
        let milliseconds = escapeDelay.components.seconds * 1000 + escapeDelay.components.attoseconds / 1_000_000_000_000_000
        escapeDelayMilliseconds = Int32(clamping: milliseconds)
        decoder = KeyDecoder(escapeTimeout: escapeDelay)
        // A first guess from the environment; setUp() refines it with curses' COLORS.
        colorDepth = min(ColorDepth.detect(environment: environment), .ansi256)
    }

    deinit {
        tearDown()
    }

    public func setUp() throws {
        guard screen == nil else { return }
        setlocale(LC_ALL, "")
        if stratus_locale_is_utf8() == 0 {
            // Wide characters and box drawing need a UTF-8 locale; C.UTF-8 is always there on Linux.
            setlocale(LC_CTYPE, "C.UTF-8")
        }
        guard let created = stratus_newterm() else {
            throw StartError(message: "cannot start the terminal (TERM=\(environment["TERM"] ?? "unset"))")
        }
        screen = created
        raw()
        noecho()
        nonl()
        stratus_keypad_stdscr(1)
        stratus_intrflush_stdscr(0)
        stratus_nodelay_stdscr(1)
        set_escdelay(escapeDelayMilliseconds)
        startColors()
        stratus_install_signal_handlers(signalWakeup.writeDescriptor)
        if bracketedPaste { stratus_set_bracketed_paste(1) }
        if mouse { stratus_set_mouse(1) }
        setCursorVisible(false)
        syncSize()
        previous = nil
    }

    public func tearDown() {
        guard let current = screen else { return }
        if bracketedPaste { stratus_set_bracketed_paste(0) }
        if mouse { stratus_set_mouse(0) }
        setCursorVisible(true)
        endwin()
        delscreen(current)
        screen = nil
        stratus_remove_signal_handlers()
    }

    public func suspend() {
        guard screen != nil else { return }
        if bracketedPaste { stratus_set_bracketed_paste(0) }
        setCursorVisible(true)
        endwin()
        fflush(nil)
        // The default action of SIGTSTP stops the process; the shell reports the job stopped
        // and `fg` sends SIGCONT, after which this call returns.
        stratus_stop_self()
        refresh()
        stratus_clearok_curscr()
        if bracketedPaste { stratus_set_bracketed_paste(1) }
        cursorVisible = nil
        setCursorVisible(false)
        syncSize()
        previous = nil
    }

    public var pendingSignal: Int32? {
        let caught = stratus_pending_signal()
        return caught == 0 ? nil : caught
    }

    public func draw(_ canvas: Canvas) {
        guard screen != nil else { return }
        let width = canvas.gridSize.width
        let reference = previous.flatMap { $0.gridSize == canvas.gridSize ? $0 : nil }
        if reference == nil { erase() }
        var changed = 0
        for (index, cell) in canvas.cells.enumerated() {
            if let reference, reference.cells[index] == cell { continue }
            changed += 1
            if cell.isContinuation { continue }
            write(cell, y: Int32(index / width), x: Int32(index % width))
        }
        lastChangedCells = changed
        previous = canvas
        placeCursor(canvas.cursor)
        refresh()
    }

    public func setCursor(_ position: Point?) {
        guard screen != nil else { return }
        placeCursor(position)
        refresh()
    }

    public func readEvent(timeout: Duration?, wakeup: Wakeup?) -> Event? {
        guard screen != nil else { return nil }
        let clock = ContinuousClock()
        let end = timeout.map { clock.now + $0 }
        while true {
            if pendingSignal != nil { return nil }
            if !queued.isEmpty { return queued.removeFirst() }
            while let code = readCode() {
                if code == .keyCode(CursesKey.resize) {
                    syncSize()
                    previous = nil
                    queued.append(.resize(width: size.width, height: size.height))
                } else if code == .keyCode(CursesKey.mouse) {
                    var x: Int32 = 0, y: Int32 = 0
                    switch stratus_read_mouse(&x, &y) {
                    case 1: queued.append(.mouse(MouseEvent(.press, x: Int(x), y: Int(y))))
                    case 4: queued.append(.mouse(MouseEvent(.wheelUp, x: Int(x), y: Int(y))))
                    case 5: queued.append(.mouse(MouseEvent(.wheelDown, x: Int(x), y: Int(y))))
                    default: break
                    }
                } else {
                    queued += decoder.feed(code, at: clock.now)
                }
                if !queued.isEmpty { return queued.removeFirst() }
            }
            let now = clock.now
            queued += decoder.flush(at: now)
            if !queued.isEmpty { return queued.removeFirst() }
            if let end, now >= end { return nil }
            var wait = end.map { $0 - now }
            if let deadline = decoder.deadline {
                wait = min(wait ?? (deadline - now), deadline - now)
            }
            switch waitForInput(wait, wakeup: wakeup) {
            case .woken:
                wakeup?.drain()
                return nil
            case .signalled:
                signalWakeup.drain()
                return nil
            case .input, .timedOut, .interrupted:
                continue
            }
        }
    }

    // MARK: - Private

    private enum WaitResult {
        case input, woken, signalled, timedOut, interrupted
    }

    private func startColors() {
        let fromEnvironment = ColorDepth.detect(environment: environment)
        guard fromEnvironment != .none, has_colors() else {
            colorDepth = .none
            colors = CursesColorPairs(colorCount: 0)
            return
        }
        start_color()
        use_default_colors()
        let count = Int(stratus_colors())
        colorDepth = ColorDepth.detect(environment: environment, cursesColors: count)
        if count < 1 << 24, colorDepth == .trueColor { colorDepth = .ansi256 }
        colors = CursesColorPairs(colorCount: count)
    }

    private func syncSize() {
        size = Size(width: Int(stratus_screen_width()), height: Int(stratus_screen_height()))
    }

    private func setCursorVisible(_ visible: Bool) {
        guard cursorVisible != visible else { return }
        cursorVisible = visible
        curs_set(visible ? 1 : 0)
    }

    private func placeCursor(_ position: Point?) {
        if let position {
            setCursorVisible(true)
            move(Int32(position.y), Int32(position.x))
        } else {
            setCursorVisible(false)
        }
    }

    /// Writes one lead cell. ncurses stores one spacing character per cell, so a cluster of
    /// several (a ZWJ emoji, a flag) is cut to its first (and its marks); when ncurses thinks that character is
    /// narrower than our canvas does, the second column is written as a space to keep
    /// everything to its right where the canvas put it.
    private func write(_ cell: Cell, y: Int32, x: Int32) {
        var characters: [wchar_t] = []
        for scalar in cell.symbol.unicodeScalars {
            if characters.isEmpty {
                characters.append(wchar_t(bitPattern: scalar.value))
            } else if scalar.value != 0x200D, DisplayWidth.isZeroWidth(scalar), characters.count < Int(CCHARW_MAX) - 1 {
                characters.append(wchar_t(bitPattern: scalar.value))
            } else {
                break
            }
        }
        characters.append(0)
        let style = colorDepth.stepDown(cell.style)
        let attributes = CursesColorPairs.attributes(style.attributes)
        let pair = colors.pair(for: style)
        _ = stratus_put_cell(y, x, characters, attributes, pair)
        if cell.width == 2, stratus_wcwidth(UInt32(bitPattern: characters[0])) != 2 {
            _ = stratus_put_cell(y, x + 1, [wchar_t(32), 0], attributes, pair)
        }
    }

    /// One `get_wch` in no-delay mode; nil when nothing is waiting.
    private func readCode() -> InputCode? {
        var value: UInt32 = 0
        let result = stratus_get_wch(&value)
        if result == stratus_key_code_yes() { return .keyCode(Int32(bitPattern: value)) }
        if result == OK, let scalar = Unicode.Scalar(value) { return .character(scalar) }
        return nil
    }

    private func waitForInput(_ wait: Duration?, wakeup: Wakeup?) -> WaitResult {
        var descriptors = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: signalWakeup.readDescriptor, events: Int16(POLLIN), revents: 0)]
        if let wakeup, wakeup.readDescriptor >= 0 {
            descriptors.append(pollfd(fd: wakeup.readDescriptor, events: Int16(POLLIN), revents: 0))
        }
        var milliseconds: Int32 = -1
        if let wait {
            let parts = wait.components
            let total = max(0, parts.seconds * 1000 + (parts.attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
            milliseconds = Int32(clamping: total)
        }
        let result = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
        if result < 0 { return .interrupted }
        if result == 0 { return .timedOut }
        if descriptors[1].revents != 0 { return .signalled }
        if descriptors.count > 2, descriptors[2].revents != 0 { return .woken }
        if descriptors[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
            // The terminal is gone (SIGHUP normally ends us first); don't spin while it goes.
            usleep(20_000)
            return .timedOut
        }
        return .input
    }
}

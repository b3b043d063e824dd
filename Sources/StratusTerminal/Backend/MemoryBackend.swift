/// An in-memory terminal for tests: frames land in ``screen``, input comes from a script.
///
/// It diffs each frame against the last one like the real backend does, and records how many
/// cells changed, so tests can check that an update rewrites only what it must.
public final class MemoryBackend: Backend {
    public private(set) var size: Size
    public var colorDepth: ColorDepth
    /// The last presented frame (nil before the first draw).
    public private(set) var screen: Canvas?
    /// Cells written by the last ``draw(_:)`` (all of them after a resize).
    public private(set) var lastChangedCells = 0
    /// Frames presented so far.
    public private(set) var drawCount = 0
    /// Where the cursor is shown, or nil when hidden.
    public private(set) var cursor: Point?
    public private(set) var isSetUp = false
    /// Scripted input not yet read.
    public private(set) var pendingEvents: [Event] = []
    /// A signal as if one had been caught (tests of the loop's way out).
    public var pendingSignal: Int32?
    /// How many times ``suspend()`` ran (a memory screen has no process to stop).
    public private(set) var suspendCount = 0

    public func suspend() { suspendCount += 1 }

    public init(width: Int = 80, height: Int = 24, colorDepth: ColorDepth = .trueColor) {
        size = Size(width: width, height: height)
        self.colorDepth = colorDepth
    }

    /// Queues events for ``readEvent(timeout:wakeup:)``.
    public func enqueue(_ events: Event...) {
        pendingEvents += events
    }

    /// Queues key presses.
    public func enqueue(keys: Key...) {
        pendingEvents += keys.map { .key($0) }
    }

    /// Queues each character of `text` as a key press.
    public func type(_ text: String) {
        pendingEvents += text.map { .key(.char($0)) }
    }

    /// Changes the screen size and queues the resize event a terminal would send.
    public func resize(width: Int, height: Int) {
        size = Size(width: width, height: height)
        pendingEvents.append(.resize(width: width, height: height))
    }

    /// The screen's text, rows joined by newlines, trailing spaces trimmed ("" before a draw).
    public var text: String { screen?.text ?? "" }

    public func setUp() throws {
        isSetUp = true
    }

    public func tearDown() {
        isSetUp = false
    }

    public func draw(_ canvas: Canvas) {
        drawCount += 1
        if let previous = screen, previous.gridSize == canvas.gridSize {
            lastChangedCells = zip(previous.cells, canvas.cells).reduce(0) { count, pair in
                count + (pair.0 == pair.1 ? 0 : 1)
            }
        } else {
            lastChangedCells = canvas.cells.count
        }
        screen = canvas
        cursor = canvas.cursor
    }

    public func setCursor(_ position: Point?) {
        cursor = position
    }

    /// Returns the next scripted event at once, or nil when the script is empty (never waits).
    public func readEvent(timeout: Duration?, wakeup: Wakeup?) -> Event? {
        guard !pendingEvents.isEmpty else { return nil }
        return pendingEvents.removeFirst()
    }
}

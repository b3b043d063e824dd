/// Where frames go and where input comes from: the real terminal (``NcursesBackend``) or an
/// in-memory screen for tests (``MemoryBackend``).
///
/// A backend is used from one thread only (the one running the ``EventLoop``).
public protocol Backend: AnyObject {
    /// The screen size in cells; a fresh canvas for the next frame has this size.
    var size: Size { get }
    /// How many colours frames can use (themes should be stepped down to it).
    var colorDepth: ColorDepth { get }

    /// Takes over the terminal. Called once before the first frame.
    func setUp() throws
    /// Gives the terminal back exactly as it was. Safe to call more than once.
    func tearDown()

    /// Presents a frame, writing only the cells that differ from the previous one, and places
    /// or hides the cursor as the canvas asks.
    func draw(_ canvas: Canvas)
    /// Places the cursor (grid coordinates) or hides it (nil) without drawing a frame.
    func setCursor(_ position: Point?)

    /// The next input event. Waits at most `timeout` (nil: until input or a wake-up) and
    /// returns nil on timeout or when `wakeup` is signalled (the loop then drains its mailbox).
    func readEvent(timeout: Duration?, wakeup: Wakeup?) -> Event?

    /// A termination signal (SIGINT, SIGTERM, SIGHUP) caught since ``setUp()``, if any. The
    /// handler only notes it and wakes ``readEvent(timeout:wakeup:)``: the loop then ends
    /// and the terminal is restored outside the handler, where that is safe.
    var pendingSignal: Int32? { get }

    /// Gives the terminal back, stops the process as a shell's Ctrl-Z does, and takes the
    /// terminal again when the shell continues it (`fg`); the next frame is drawn whole.
    func suspend()
}

/// An app driven by ``EventLoop``, in the Elm style: events and messages update the state,
/// and `render` draws the state into a fresh canvas.
///
/// Background work gets the loop's ``Mailbox`` (handed to the app when it is made) and posts
/// `Message`s to it; they arrive in ``receive(_:)`` on the UI thread.
public protocol TerminalApp {
    /// What background work reports back.
    associatedtype Message: Sendable

    /// A key, a paste, a resize or a tick.
    mutating func handle(_ event: Event)
    /// A message posted to the mailbox.
    mutating func receive(_ message: Message)
    /// Draws the whole frame. The canvas is blank and sized to the terminal.
    func render(into canvas: inout Canvas)
    /// Checked after each update; true ends ``EventLoop/run()``.
    var wantsQuit: Bool { get }
    /// Checked after each event; true makes the loop suspend the process (Ctrl-Z) and call
    /// ``resumed()`` once it runs again.
    var wantsSuspend: Bool { get }
    /// The process was suspended and runs again.
    mutating func resumed()
}

extension TerminalApp {
    public var wantsSuspend: Bool { false }
    public mutating func resumed() {}
}

/// Something the terminal reports to the app.
public enum Event: Hashable, Sendable {
    case key(Key)
    /// Text pasted with bracketed paste: literal, never to be read as commands. Line breaks
    /// are "\n".
    case paste(String)
    /// The terminal now has this many columns and rows.
    case resize(width: Int, height: Int)
    /// A click or a turn of the wheel (when the backend reports the mouse).
    case mouse(MouseEvent)
    /// The loop's periodic tick (spinners, clearing status messages), if the app asked for one.
    case tick
}

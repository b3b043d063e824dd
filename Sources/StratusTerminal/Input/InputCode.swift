/// One raw input unit, as ncurses' `get_wch` returns it: a character, or a key code
/// (`KEY_UP`, `KEY_F(1)`...; see ``CursesKey``). The input of ``KeyDecoder``.
public enum InputCode: Hashable, Sendable {
    case character(Unicode.Scalar)
    case keyCode(Int32)

    /// Each scalar of `text` as a character code (for scripted input in tests).
    public static func characters(_ text: String) -> [InputCode] {
        text.unicodeScalars.map { .character($0) }
    }
}

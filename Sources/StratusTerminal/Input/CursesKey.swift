import CNcurses

/// ncurses key codes (the `KEY_*` macros), named for the decoder and for tests that feed it.
public enum CursesKey {
    public static let down = Int32(KEY_DOWN)
    public static let up = Int32(KEY_UP)
    public static let left = Int32(KEY_LEFT)
    public static let right = Int32(KEY_RIGHT)
    public static let home = Int32(KEY_HOME)
    public static let end = Int32(KEY_END)
    public static let backspace = Int32(KEY_BACKSPACE)
    public static let delete = Int32(KEY_DC)
    public static let insert = Int32(KEY_IC)
    public static let pageDown = Int32(KEY_NPAGE)
    public static let pageUp = Int32(KEY_PPAGE)
    public static let enter = Int32(KEY_ENTER)
    public static let backTab = Int32(KEY_BTAB)
    public static let resize = Int32(KEY_RESIZE)
    public static let mouse = Int32(KEY_MOUSE)

    /// `KEY_F(n)`.
    public static func function(_ number: Int) -> Int32 { Int32(stratus_key_f(Int32(number))) }

    /// F1...F63 back to its number.
    static func functionNumber(_ code: Int32) -> Int? {
        let number = Int(code) - Int(stratus_key_f(0))
        return (1...63).contains(number) ? number : nil
    }
}

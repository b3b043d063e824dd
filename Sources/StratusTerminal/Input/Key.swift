/// A key press, decoded from the terminal's byte stream.
///
/// Control combinations arrive as `ctrl` with a lowercase letter (`ctrl("c")`, which the app may
/// treat as quit since raw mode delivers it as a key, not a signal); Alt/Meta combinations as `alt`.
public enum Key: Hashable, Sendable {
    case char(Character)
    case enter
    case escape
    case tab
    case backTab
    case backspace
    case delete
    case insert
    case up, down, left, right
    case home, end
    case pageUp, pageDown
    /// F1...F63.
    case function(Int)
    case ctrl(Character)
    case alt(Character)

    /// A short label for hint bars and help (`Ctrl-C`, `Alt-x`, `↑`, `PgDn`, `F5`).
    public var label: String {
        switch self {
        case .char(" "): return "Space"
        case .char(let character): return String(character)
        case .enter: return "Enter"
        case .escape: return "Esc"
        case .tab: return "Tab"
        case .backTab: return "Shift-Tab"
        case .backspace: return "Backspace"
        case .delete: return "Del"
        case .insert: return "Ins"
        case .up: return "↑"
        case .down: return "↓"
        case .left: return "←"
        case .right: return "→"
        case .home: return "Home"
        case .end: return "End"
        case .pageUp: return "PgUp"
        case .pageDown: return "PgDn"
        case .function(let number): return "F\(number)"
        case .ctrl(let character): return "Ctrl-" + String(character).uppercased()
        case .alt(let character): return "Alt-" + String(character)
        }
    }

    /// Parses a key name as a key-map file would write it: `q`, `enter`, `esc`, `ctrl-c`,
    /// `alt-x`, `f5`, `pgdn`, `shift-tab`, `up`, `space`. Case-insensitive except single characters.
    public init?(name: String) {
        if name.count == 1, let character = name.first {
            self = .char(character)
            return
        }
        let lower = name.lowercased()
        for prefix in ["ctrl-", "ctrl+", "c-", "^"] where lower.hasPrefix(prefix) {
            let rest = lower.dropFirst(prefix.count)
            guard rest.count == 1, let character = rest.first else { return nil }
            self = .ctrl(character)
            return
        }
        for prefix in ["alt-", "alt+", "m-", "meta-"] where lower.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            guard rest.count == 1, let character = rest.first else { return nil }
            self = .alt(character)
            return
        }
        if lower.hasPrefix("f"), let number = Int(lower.dropFirst()), (1...63).contains(number) {
            self = .function(number)
            return
        }
        let named: [String: Key] = [
            "enter": .enter, "return": .enter, "esc": .escape, "escape": .escape, "tab": .tab,
            "shift-tab": .backTab, "backtab": .backTab, "backspace": .backspace, "bs": .backspace,
            "delete": .delete, "del": .delete, "insert": .insert, "ins": .insert,
            "up": .up, "down": .down, "left": .left, "right": .right, "home": .home, "end": .end,
            "pageup": .pageUp, "pgup": .pageUp, "pagedown": .pageDown, "pgdn": .pageDown,
            "space": .char(" "),
        ]
        guard let key = named[lower] else { return nil }
        self = key
    }
}

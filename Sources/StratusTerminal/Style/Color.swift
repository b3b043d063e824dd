/// A foreground or background colour as a theme states it; backends step it down to what the
/// terminal can show (see ``ColorDepth``).
public enum Color: Hashable, Sendable {
    /// The terminal's own colour (transparent background, the user's foreground).
    case `default`
    /// One of the 16 ANSI colours, 0...15 (the user's palette, so themes adapt to it).
    case ansi(UInt8)
    /// An xterm-256 palette index.
    case indexed(UInt8)
    /// A 24-bit colour.
    case rgb(UInt8, UInt8, UInt8)

    /// The 16 ANSI names, in palette order; `gray`/`grey` are accepted for `brightBlack`.
    public static let ansiNames = [
        "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
        "brightBlack", "brightRed", "brightGreen", "brightYellow",
        "brightBlue", "brightMagenta", "brightCyan", "brightWhite",
    ]

    public static let black = Color.ansi(0)
    public static let red = Color.ansi(1)
    public static let green = Color.ansi(2)
    public static let yellow = Color.ansi(3)
    public static let blue = Color.ansi(4)
    public static let magenta = Color.ansi(5)
    public static let cyan = Color.ansi(6)
    public static let white = Color.ansi(7)
    public static let brightBlack = Color.ansi(8)
    public static let brightRed = Color.ansi(9)
    public static let brightGreen = Color.ansi(10)
    public static let brightYellow = Color.ansi(11)
    public static let brightBlue = Color.ansi(12)
    public static let brightMagenta = Color.ansi(13)
    public static let brightCyan = Color.ansi(14)
    public static let brightWhite = Color.ansi(15)

    /// Parses a theme value: `default`, an ANSI name (`red`, `brightBlue`, `bright-blue`,
    /// `gray`), `#RRGGBB`, `#RGB`, or a 256-palette index written as digits (`"236"`).
    public init?(parsing text: String) {
        let trimmed = text.trimmingSpaces()
        let key = trimmed.lowercased().replacingDashesAndUnderscores()
        if key == "default" || key == "none" || key == "terminal" {
            self = .default
            return
        }
        if key == "gray" || key == "grey" {
            self = .ansi(8)
            return
        }
        if let index = Color.ansiNames.firstIndex(where: { $0.lowercased() == key }) {
            self = .ansi(UInt8(index))
            return
        }
        if trimmed.hasPrefix("#") {
            guard let rgb = Color.parseHex(String(trimmed.dropFirst())) else { return nil }
            self = rgb
            return
        }
        if !trimmed.isEmpty, trimmed.allSatisfy(\.isASCIIDigit), let index = Int(trimmed), index <= 255 {
            self = .indexed(UInt8(index))
            return
        }
        return nil
    }

    /// The colour as a theme file would write it.
    public var name: String {
        switch self {
        case .default: return "default"
        case .ansi(let index): return Color.ansiNames[Int(index & 15)]
        case .indexed(let index): return String(index)
        case .rgb(let red, let green, let blue):
            return "#" + [red, green, blue].map { byte in
                let digits = String(byte, radix: 16, uppercase: true)
                return digits.count == 1 ? "0" + digits : digits
            }.joined()
        }
    }

    private static func parseHex(_ digits: String) -> Color? {
        let expanded: String
        switch digits.count {
        case 3: expanded = digits.map { "\($0)\($0)" }.joined()
        case 6: expanded = digits
        default: return nil
        }
        guard expanded.allSatisfy(\.isHexDigit), let value = UInt32(expanded, radix: 16) else { return nil }
        return .rgb(UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isWholeNumber }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }

    fileprivate func replacingDashesAndUnderscores() -> String {
        String(filter { $0 != "-" && $0 != "_" && $0 != " " })
    }
}

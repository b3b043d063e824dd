/// How many colours the terminal can show. Themes are written once, in any notation, and
/// stepped down to the depth at hand: truecolor -> nearest of 256 -> nearest of 16 -> none.
public enum ColorDepth: Int, Comparable, Sendable, CaseIterable {
    /// Attributes only (NO_COLOR, `dumb` terminals, monochrome).
    case none = 0
    case ansi16 = 1
    case ansi256 = 2
    case trueColor = 3

    public static func < (lhs: ColorDepth, rhs: ColorDepth) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The depth this environment supports.
    ///
    /// `NO_COLOR` set to anything non-empty wins (https://no-color.org). Then `COLORTERM`
    /// (`truecolor`/`24bit`), then `TERM` (`*256color*`, `dumb`), then curses' `COLORS` if the
    /// caller knows it. An unknown terminal gets 16 colours.
    public static func detect(environment: [String: String], cursesColors: Int? = nil) -> ColorDepth {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .none }
        let term = environment["TERM"] ?? ""
        if term.isEmpty || term == "dumb" { return .none }
        let colorTerm = (environment["COLORTERM"] ?? "").lowercased()
        if colorTerm == "truecolor" || colorTerm == "24bit" { return .trueColor }
        if let cursesColors {
            if cursesColors >= 1 << 24 { return .trueColor }
            if cursesColors >= 256 { return .ansi256 }
            if cursesColors >= 8 { return .ansi16 }
            return .none
        }
        if term.contains("256color") || term.hasSuffix("-direct") { return .ansi256 }
        return .ansi16
    }

    /// `color` as this depth can show it. `.default` always survives (it costs nothing).
    public func stepDown(_ color: Color) -> Color {
        switch (self, color) {
        case (_, .default):
            return .default
        case (.none, _):
            return .default
        case (.trueColor, _):
            return color
        case (.ansi256, .rgb(let red, let green, let blue)):
            return .indexed(XtermPalette.nearest256(red: Int(red), green: Int(green), blue: Int(blue)))
        case (.ansi256, _):
            return color
        case (.ansi16, .ansi):
            return color
        case (.ansi16, .indexed(let index)):
            if index < 16 { return .ansi(index) }
            let (red, green, blue) = XtermPalette.rgb(of: index)
            return .ansi(XtermPalette.nearest16(red: red, green: green, blue: blue))
        case (.ansi16, .rgb(let red, let green, let blue)):
            // Through the 256 palette first, so both steps agree with each other.
            return ColorDepth.ansi16.stepDown(ColorDepth.ansi256.stepDown(.rgb(red, green, blue)))
        }
    }

    /// `style` as this depth can show it. Without colour, a coloured background (a selection,
    /// a status bar) becomes reverse video so it stays visible; bold, underline and reverse
    /// are always kept.
    public func stepDown(_ style: Style) -> Style {
        var result = style
        result.foreground = stepDown(style.foreground)
        result.background = stepDown(style.background)
        if self == .none, style.background != .default, !style.attributes.contains(.reverse) {
            result.attributes.insert(.reverse)
        }
        return result
    }
}

import CNcurses

/// Maps (foreground, background) to ncurses colour pairs, allocating pairs on first use.
///
/// Uses `alloc_pair` (extended pairs, recycled least-recently-used when the terminal runs
/// out), and passes pair numbers separately from attributes, since `COLOR_PAIR(n)` keeps
/// only 8 bits. Colours must already be stepped down to the terminal's depth.
struct CursesColorPairs {
    /// `COLORS` as ncurses reports it once colours are started.
    let colorCount: Int
    private var pairs: [PairKey: Int32] = [:]

    private struct PairKey: Hashable {
        var foreground: Color
        var background: Color
    }

    init(colorCount: Int) {
        self.colorCount = colorCount
    }

    /// The pair number for a style's colours; 0 (the terminal's own colours) when colours are
    /// off or the pair cannot be made.
    mutating func pair(for style: Style) -> Int32 {
        guard colorCount > 0 else { return 0 }
        if style.foreground == .default && style.background == .default { return 0 }
        let key = PairKey(foreground: style.foreground, background: style.background)
        if let known = pairs[key] { return known }
        let number = alloc_pair(colorNumber(style.foreground), colorNumber(style.background))
        let pair = number < 0 ? 0 : number
        pairs[key] = pair
        return pair
    }

    /// ncurses' number for a colour: -1 for the default (needs `use_default_colors`), the
    /// palette index, or the packed RGB value on direct-colour terminals.
    func colorNumber(_ color: Color) -> Int32 {
        switch color {
        case .default:
            return -1
        case .ansi(let index):
            return Int32(colorCount >= 16 ? index & 15 : index & 7)
        case .indexed(let index):
            if colorCount >= 256 || index < 8 { return Int32(index) }
            return colorNumber(ColorDepth.ansi16.stepDown(color))
        case .rgb(let red, let green, let blue):
            if colorCount >= 1 << 24 { return Int32(red) << 16 | Int32(green) << 8 | Int32(blue) }
            return colorNumber(ColorDepth.ansi256.stepDown(color))
        }
    }

    /// ncurses attribute bits for a style's attributes.
    static func attributes(_ attributes: Style.Attributes) -> attr_t {
        var bits = stratus_attr_normal()
        if attributes.contains(.bold) { bits |= stratus_attr_bold() }
        if attributes.contains(.dim) { bits |= stratus_attr_dim() }
        if attributes.contains(.italic) { bits |= stratus_attr_italic() }
        if attributes.contains(.underline) { bits |= stratus_attr_underline() }
        if attributes.contains(.reverse) { bits |= stratus_attr_reverse() }
        return bits
    }
}

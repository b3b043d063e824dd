/// How a cell looks: colours plus attributes. Values are plain data so canvases can be
/// compared cell by cell (the backend writes only what changed).
public struct Style: Hashable, Sendable {
    /// Text attributes. Bold, underline and reverse survive NO_COLOR, so UI states that must
    /// stay visible (selection, focus) should use them, not colour alone.
    public struct Attributes: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let bold = Attributes(rawValue: 1 << 0)
        public static let dim = Attributes(rawValue: 1 << 1)
        public static let italic = Attributes(rawValue: 1 << 2)
        public static let underline = Attributes(rawValue: 1 << 3)
        public static let reverse = Attributes(rawValue: 1 << 4)

        /// Names used in theme files, in a fixed order.
        public static let named: [(String, Attributes)] = [
            ("bold", .bold), ("dim", .dim), ("italic", .italic), ("underline", .underline), ("reverse", .reverse),
        ]
    }

    public var foreground: Color
    public var background: Color
    public var attributes: Attributes

    /// The terminal's own colours, no attributes.
    public static let plain = Style()

    public init(foreground: Color = .default, background: Color = .default, attributes: Attributes = []) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    /// Shorthand: `Style(fg: .red, .bold)`.
    public init(fg: Color = .default, bg: Color = .default, _ attributes: Attributes...) {
        self.init(foreground: fg, background: bg, attributes: Attributes(attributes))
    }

    public var isBold: Bool { attributes.contains(.bold) }
    public var isDim: Bool { attributes.contains(.dim) }
    public var isItalic: Bool { attributes.contains(.italic) }
    public var isUnderlined: Bool { attributes.contains(.underline) }
    public var isReversed: Bool { attributes.contains(.reverse) }

    /// A copy with extra attributes (e.g. a selected row: `theme[.text].adding(.reverse)`).
    public func adding(_ extra: Attributes) -> Style {
        var copy = self
        copy.attributes.formUnion(extra)
        return copy
    }

    /// A copy with another foreground.
    public func foreground(_ color: Color) -> Style {
        var copy = self
        copy.foreground = color
        return copy
    }

    /// A copy with another background.
    public func background(_ color: Color) -> Style {
        var copy = self
        copy.background = color
        return copy
    }
}

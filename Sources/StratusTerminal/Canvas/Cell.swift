/// One terminal cell: the grapheme cluster drawn there and its style.
///
/// A wide character (CJK, emoji) occupies its lead cell plus a *continuation* cell to its
/// right, whose symbol is empty. Backends draw the lead and skip the continuation.
public struct Cell: Hashable, Sendable {
    /// The grapheme cluster shown (one `Character`), or "" for a continuation cell.
    public var symbol: String
    public var style: Style

    public init(_ symbol: String = " ", style: Style = .plain) {
        self.symbol = symbol
        self.style = style
    }

    /// An empty cell in the terminal's own colours.
    public static let blank = Cell()

    /// The right half of a wide character.
    public static func continuation(style: Style) -> Cell { Cell("", style: style) }

    public var isContinuation: Bool { symbol.isEmpty }

    /// Columns the symbol takes (2 for a wide lead cell, 0 for a continuation).
    public var width: Int { symbol.isEmpty ? 0 : max(1, DisplayWidth.of(symbol)) }
}

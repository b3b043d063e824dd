/// The characters of a box: corners, edges and the tees where dividers meet the frame.
/// `ascii` is for terminals or users without box-drawing fonts (an `--ascii` option).
public struct BorderGlyphs: Hashable, Sendable {
    public var horizontal: String
    public var vertical: String
    public var topLeft: String
    public var topRight: String
    public var bottomLeft: String
    public var bottomRight: String
    /// ├ ┤ ┬ ┴ ┼ : where an inner divider meets the frame or another divider.
    public var teeRight: String
    public var teeLeft: String
    public var teeDown: String
    public var teeUp: String
    public var cross: String

    public init(
        horizontal: String, vertical: String, topLeft: String, topRight: String,
        bottomLeft: String, bottomRight: String, teeRight: String, teeLeft: String,
        teeDown: String, teeUp: String, cross: String
    ) {
        self.horizontal = horizontal
        self.vertical = vertical
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomLeft = bottomLeft
        self.bottomRight = bottomRight
        self.teeRight = teeRight
        self.teeLeft = teeLeft
        self.teeDown = teeDown
        self.teeUp = teeUp
        self.cross = cross
    }

    public static let single = BorderGlyphs(
        horizontal: "─", vertical: "│", topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘",
        teeRight: "├", teeLeft: "┤", teeDown: "┬", teeUp: "┴", cross: "┼")
    public static let rounded = BorderGlyphs(
        horizontal: "─", vertical: "│", topLeft: "╭", topRight: "╮", bottomLeft: "╰", bottomRight: "╯",
        teeRight: "├", teeLeft: "┤", teeDown: "┬", teeUp: "┴", cross: "┼")
    public static let heavy = BorderGlyphs(
        horizontal: "━", vertical: "┃", topLeft: "┏", topRight: "┓", bottomLeft: "┗", bottomRight: "┛",
        teeRight: "┣", teeLeft: "┫", teeDown: "┳", teeUp: "┻", cross: "╋")
    public static let double = BorderGlyphs(
        horizontal: "═", vertical: "║", topLeft: "╔", topRight: "╗", bottomLeft: "╚", bottomRight: "╝",
        teeRight: "╠", teeLeft: "╣", teeDown: "╦", teeUp: "╩", cross: "╬")
    public static let ascii = BorderGlyphs(
        horizontal: "-", vertical: "|", topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+",
        teeRight: "+", teeLeft: "+", teeDown: "+", teeUp: "+", cross: "+")
}

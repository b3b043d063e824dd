/// The name of a themed role in the UI ("selection", "hintKey"), as written in theme files.
///
/// A struct rather than an enum so an app can add its own roles (`ThemeSlot("valueDate")`)
/// and hand them to ``ThemeLoader``; the toolkit's own roles are the static members.
public struct ThemeSlot: RawRepresentable, Hashable, Sendable, Comparable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ name: String) { self.rawValue = name }
    public init(stringLiteral value: String) { self.rawValue = value }

    public var description: String { rawValue }

    public static func < (lhs: ThemeSlot, rhs: ThemeSlot) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Ordinary text; also the fallback for any slot a theme leaves out.
    public static let text: ThemeSlot = "text"
    public static let dim: ThemeSlot = "dim"
    public static let border: ThemeSlot = "border"
    public static let title: ThemeSlot = "title"
    public static let tabActive: ThemeSlot = "tabActive"
    public static let tabInactive: ThemeSlot = "tabInactive"
    public static let selection: ThemeSlot = "selection"
    public static let header: ThemeSlot = "header"
    public static let status: ThemeSlot = "status"
    public static let statusError: ThemeSlot = "statusError"
    public static let hint: ThemeSlot = "hint"
    public static let hintKey: ThemeSlot = "hintKey"
    public static let error: ThemeSlot = "error"
    public static let errorUnderline: ThemeSlot = "errorUnderline"
    public static let accent: ThemeSlot = "accent"
    public static let success: ThemeSlot = "success"
    public static let warning: ThemeSlot = "warning"
    public static let input: ThemeSlot = "input"
    public static let cursor: ThemeSlot = "cursor"
    public static let fieldType: ThemeSlot = "fieldType"
    public static let breadcrumb: ThemeSlot = "breadcrumb"

    /// The toolkit's slots; theme files may set exactly these unless the app adds more.
    public static let builtIn: [ThemeSlot] = [
        .text, .dim, .border, .title, .tabActive, .tabInactive, .selection, .header, .status,
        .statusError, .hint, .hintKey, .error, .errorUnderline, .accent, .success, .warning,
        .input, .cursor, .fieldType, .breadcrumb,
    ]
}

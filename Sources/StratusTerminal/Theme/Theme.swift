/// A named set of styles, one per ``ThemeSlot``. Views ask for roles (`theme[.selection]`),
/// never for colours, so a theme file can restyle the whole UI.
public struct Theme: Equatable, Sendable {
    public var name: String
    /// Styles by slot; a missing slot reads as ``ThemeSlot/text``.
    public var styles: [ThemeSlot: Style]

    public init(name: String, styles: [ThemeSlot: Style]) {
        self.name = name
        self.styles = styles
    }

    /// The style of a slot, falling back to `text`, then to the terminal's plain style.
    public subscript(slot: ThemeSlot) -> Style {
        get { styles[slot] ?? styles[.text] ?? .plain }
        set { styles[slot] = newValue }
    }

    /// Every style stepped down to what the terminal can show (see ``ColorDepth``).
    public func steppedDown(to depth: ColorDepth) -> Theme {
        Theme(name: name, styles: styles.mapValues { depth.stepDown($0) })
    }

    /// The built-in theme: the terminal's own foreground and background plus the user's
    /// ANSI palette, so it reads well on dark and light backgrounds alike. `themes/default.json`
    /// is the same theme written as a file.
    public static let builtInDefault = Theme(name: "default", styles: [
        .text: Style(),
        .dim: Style(.dim),
        .border: Style(fg: .brightBlack),
        .title: Style(.bold),
        .tabActive: Style(.bold, .reverse),
        .tabInactive: Style(),
        .selection: Style(.reverse),
        .header: Style(.bold, .underline),
        .status: Style(.reverse),
        .statusError: Style(fg: .red, .bold, .reverse),
        .hint: Style(.dim),
        .hintKey: Style(.bold),
        .error: Style(fg: .red, .bold),
        .errorUnderline: Style(fg: .red, .underline),
        .accent: Style(fg: .cyan),
        .success: Style(fg: .green),
        .warning: Style(fg: .yellow),
        .input: Style(.underline),
        .cursor: Style(.reverse),
        .fieldType: Style(fg: .magenta),
        .breadcrumb: Style(.bold),
    ])
}

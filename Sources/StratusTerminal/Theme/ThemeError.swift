/// Why a theme could not be loaded, naming the file and the JSON key at fault so the user
/// can fix it (shown on the status line while the built-in default is used instead).
public struct ThemeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The theme file's path (or the theme name when there is no file).
    public var file: String
    /// The dotted key path in the file, e.g. `slots.selection.fg`; nil for whole-file errors.
    public var key: String?
    /// What is wrong, in words.
    public var message: String

    public init(file: String, key: String? = nil, message: String) {
        self.file = file
        self.key = key
        self.message = message
    }

    public var description: String {
        if let key { return "\(file): \(key): \(message)" }
        return "\(file): \(message)"
    }
}

import Foundation

/// Loads themes from `<directory>/<name>.json`.
///
/// File shape (every part optional except that slots must be known):
///
///     { "name": "nord", "extends": "default",
///       "palette": { "frost": "#88C0D0" },
///       "slots": { "selection": { "fg": "black", "bg": "frost", "attrs": ["bold"] } } }
///
/// A theme starts from the theme it `extends` (the built-in default when absent) and replaces
/// the slots it names. Colours are `default`, ANSI names, `#RRGGBB`, `0`...`255` or palette names.
public struct ThemeLoader: Sendable {
    public var directory: String
    /// Slots a theme file may set; an unknown slot is an error (catches typos).
    public var knownSlots: Set<ThemeSlot>

    public init(directory: String, knownSlots: some Sequence<ThemeSlot> = ThemeSlot.builtIn) {
        self.directory = directory
        self.knownSlots = Set(knownSlots)
    }

    /// Names of the `.json` files in the directory, sorted.
    public func availableThemes() -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }

    /// The theme called `name`, or the first problem found in it (or in a theme it extends).
    /// `default` with no file is the built-in theme.
    public func load(named name: String) throws(ThemeError) -> Theme {
        try load(named: name, chain: [])
    }

    /// The theme called `name`, or the built-in default plus the error that prevented loading.
    public func loadOrDefault(named name: String) -> (theme: Theme, error: ThemeError?) {
        do {
            return (try load(named: name), nil)
        } catch {
            return (.builtInDefault, error)
        }
    }

    /// Parses theme JSON. `file` names it in errors; `base` resolves `extends`.
    public func parse(
        _ data: Data, file: String, base: (String) throws(ThemeError) -> Theme
    ) throws(ThemeError) -> Theme {
        let root: [String: Any]
        do {
            guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw ThemeError(file: file, message: "the file must hold one JSON object")
            }
            root = object
        } catch let error as ThemeError {
            throw error
        } catch {
            throw ThemeError(file: file, message: ThemeLoader.describeJSONError(error, in: data))
        }
        let allowedKeys: Set<String> = ["name", "extends", "palette", "slots", "variant", "description"]
        for key in root.keys.sorted() where !allowedKeys.contains(key) {
            throw ThemeError(
                file: file, key: key,
                message: "unknown key (expected one of \(allowedKeys.sorted().joined(separator: ", ")))")
        }
        let name = try string(root["name"], file: file, key: "name") ?? file.themeName
        var theme = Theme.builtInDefault
        if let baseName = try string(root["extends"], file: file, key: "extends") {
            theme = try base(baseName)
        }
        theme.name = name
        let palette = try parsePalette(root["palette"], file: file)
        guard let slotsValue = root["slots"] else { return theme }
        guard let slots = slotsValue as? [String: Any] else {
            throw ThemeError(file: file, key: "slots", message: "expected an object of slot styles")
        }
        for slotName in slots.keys.sorted() {
            let slot = ThemeSlot(slotName)
            guard knownSlots.contains(slot) else {
                throw ThemeError(
                    file: file, key: "slots.\(slotName)",
                    message: "unknown slot (known: \(knownSlots.sorted().map(\.rawValue).joined(separator: ", ")))")
            }
            theme[slot] = try parseStyle(slots[slotName], palette: palette, file: file, key: "slots.\(slotName)")
        }
        return theme
    }

    // MARK: - Private

    private func load(named name: String, chain: [String]) throws(ThemeError) -> Theme {
        guard ThemeLoader.isValidName(name) else {
            throw ThemeError(file: name, message: "a theme name uses only letters, digits, '-' and '_'")
        }
        let path = (directory as NSString).appendingPathComponent(name + ".json")
        if chain.contains(name) {
            throw ThemeError(file: path, key: "extends", message: "themes extend each other in a loop: "
                + (chain + [name]).joined(separator: " -> "))
        }
        guard FileManager.default.fileExists(atPath: path) else {
            if name == "default" { return .builtInDefault }
            let known = availableThemes()
            let hint = known.isEmpty ? "" : " (available: \(known.joined(separator: ", ")))"
            throw ThemeError(file: path, message: "no such theme file\(hint)")
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ThemeError(file: path, message: "cannot read the file: \(error.localizedDescription)")
        }
        return try parse(data, file: path) { (baseName: String) throws(ThemeError) -> Theme in
            try load(named: baseName, chain: chain + [name])
        }
    }

    private func parsePalette(_ value: Any?, file: String) throws(ThemeError) -> [String: Color] {
        guard let value else { return [:] }
        guard let entries = value as? [String: Any] else {
            throw ThemeError(file: file, key: "palette", message: "expected an object of named colours")
        }
        var palette: [String: Color] = [:]
        for name in entries.keys.sorted() {
            palette[name] = try parseColor(entries[name], palette: [:], file: file, key: "palette.\(name)")
        }
        return palette
    }

    private func parseStyle(_ value: Any?, palette: [String: Color], file: String, key: String) throws(ThemeError) -> Style {
        guard let fields = value as? [String: Any] else {
            throw ThemeError(file: file, key: key, message: "expected an object with fg, bg and attrs")
        }
        var style = Style()
        for field in fields.keys.sorted() {
            switch field {
            case "fg":
                style.foreground = try parseColor(fields[field], palette: palette, file: file, key: "\(key).fg")
            case "bg":
                style.background = try parseColor(fields[field], palette: palette, file: file, key: "\(key).bg")
            case "attrs":
                style.attributes = try parseAttributes(fields[field], file: file, key: "\(key).attrs")
            default:
                throw ThemeError(file: file, key: "\(key).\(field)", message: "unknown key (expected fg, bg or attrs)")
            }
        }
        return style
    }

    private func parseColor(_ value: Any?, palette: [String: Color], file: String, key: String) throws(ThemeError) -> Color {
        if let text = value as? String {
            if let named = palette[text] { return named }
            if let color = Color(parsing: text) { return color }
            throw ThemeError(
                file: file, key: key,
                message: "unknown colour \"\(text)\" (expected default, an ANSI name such as brightBlue, "
                    + "#RRGGBB, 0...255, or a palette name)")
        }
        if let number = value as? Int, (0...255).contains(number), !(value is Bool) {
            return .indexed(UInt8(number))
        }
        throw ThemeError(file: file, key: key, message: "expected a colour string such as \"#88C0D0\" or \"red\"")
    }

    private func parseAttributes(_ value: Any?, file: String, key: String) throws(ThemeError) -> Style.Attributes {
        guard let names = value as? [Any] else {
            throw ThemeError(file: file, key: key, message: "expected an array such as [\"bold\", \"underline\"]")
        }
        var attributes: Style.Attributes = []
        for (index, entry) in names.enumerated() {
            guard let name = entry as? String,
                let attribute = Style.Attributes.named.first(where: { $0.0 == name.lowercased() })?.1
            else {
                throw ThemeError(
                    file: file, key: "\(key)[\(index)]",
                    message: "unknown attribute \(entry) (expected \(Style.Attributes.named.map(\.0).joined(separator: ", ")))")
            }
            attributes.insert(attribute)
        }
        return attributes
    }

    private func string(_ value: Any?, file: String, key: String) throws(ThemeError) -> String? {
        guard let value else { return nil }
        guard let text = value as? String else {
            throw ThemeError(file: file, key: key, message: "expected a string")
        }
        return text
    }

    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_")
        }
    }

    /// Foundation reports "around character N"; turn N into a line and column.
    static func describeJSONError(_ error: any Error, in data: Data) -> String {
        let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
        guard let range = detail.range(of: "character ") else { return "invalid JSON: \(detail)" }
        let digits = detail[range.upperBound...].prefix(while: \.isNumber)
        guard let offset = Int(digits) else { return "invalid JSON: \(detail)" }
        var line = 1
        var column = 1
        for (index, byte) in data.enumerated() {
            if index >= offset { break }
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return "invalid JSON at line \(line), column \(column): \(detail)"
    }
}

extension String {
    /// "themes/light.json" -> "light".
    fileprivate var themeName: String {
        let last = (self as NSString).lastPathComponent
        return last.hasSuffix(".json") ? String(last.dropLast(5)) : last
    }
}

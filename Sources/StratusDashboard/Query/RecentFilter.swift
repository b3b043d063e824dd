/// A filter applied before, with the arguments it ran with, so picking it again runs the same
/// query.
struct RecentFilter: Hashable, Sendable, Codable {
    var text: String
    /// One per format specifier, in the command line's `--arg` syntax.
    var arguments: [String]

    init(text: String, arguments: [String] = []) {
        self.text = text
        self.arguments = arguments
    }

    /// How the filter editor lists it: the text, then the arguments.
    var label: String {
        arguments.isEmpty ? text : "\(text) ← \(arguments.joined(separator: ", "))"
    }

    private enum CodingKeys: String, CodingKey { case text, arguments }

    /// Reads `{"text", "arguments"}`, or a bare string as preference files before arguments
    /// were kept wrote it.
    init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            self.init(text: text)
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(text: try container.decode(String.self, forKey: .text),
                  arguments: try container.decodeIfPresent([String].self, forKey: .arguments) ?? [])
    }
}

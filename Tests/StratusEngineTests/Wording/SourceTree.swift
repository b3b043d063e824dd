import Foundation

/// The package's own Swift sources, for the tests that hold rules about what the code says.
enum SourceTree {
    /// The package's root folder, found from this file's place in `Tests/StratusEngineTests/Wording/`.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every `.swift` file under `Sources/<target>`.
    static func swiftFiles(in target: String) throws -> [URL] {
        let folder = root.appendingPathComponent("Sources").appendingPathComponent(target)
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
    }

    /// The lines of a file; the number of a line is its index plus one.
    static func lines(of file: URL) throws -> [Substring] {
        try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// Whether a line is a comment, which may quote what the code must not do.
    static func isComment(_ line: Substring) -> Bool {
        line.trimmingCharacters(in: .whitespaces).hasPrefix("//")
    }
}

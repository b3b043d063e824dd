import Foundation
import Testing

/// The engine above `Storage/` holds CloudKit's rules and speaks to storage accessors through
/// `StoreTransaction` only: no GRDB and no SQL there, so a second backend re-implements
/// `Storage/` and nothing else. (The compiler's MemberImportVisibility refuses GRDB members in
/// a file without `import GRDB`; this test refuses the import and the SQL.)
@Suite struct StorageBoundaryTests {
    /// What marks a line as GRDB or SQL, and how to say it.
    static let markers: [(name: String, matches: @Sendable (String) -> Bool)] = [
        ("import GRDB", { $0.contains("import GRDB") }),
        ("sql:", { $0.contains("sql:") }),
        ("cachedStatement", { $0.contains("cachedStatement") }),
        ("SELECT", { $0.contains("SELECT ") }),
        ("INSERT INTO", { $0.contains("INSERT INTO") }),
        ("UPDATE ... SET", { $0.contains("UPDATE ") && $0.contains("SET") }),
        ("DELETE FROM", { $0.contains("DELETE FROM") }),
        ("PRAGMA", { $0.contains("PRAGMA") }),
    ]

    @Test func noGRDBOrSQLAboveStorage() throws {
        let engine = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/StratusEngine")
        let files = try #require(FileManager.default.enumerator(at: engine, includingPropertiesForKeys: nil)?.allObjects as? [URL])
            .filter { $0.pathExtension == "swift" }
        let aboveStorage = files.filter { !$0.path.hasPrefix(engine.appendingPathComponent("Storage").path + "/") }
        #expect(aboveStorage.count > 50, "the engine's sources are found (\(aboveStorage.count) files above Storage/)")
        var offenders: [String] = []
        for file in aboveStorage {
            let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            for (number, line) in lines.enumerated() {
                for marker in Self.markers where marker.matches(line) {
                    let relative = file.path.replacingOccurrences(of: engine.path + "/", with: "")
                    offenders.append("\(relative):\(number + 1) (\(marker.name)): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(offenders.isEmpty, "GRDB or SQL above Storage/; move it into a Storage accessor:\n\(offenders.joined(separator: "\n"))")
    }
}

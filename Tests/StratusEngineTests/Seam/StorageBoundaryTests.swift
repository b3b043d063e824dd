import Foundation
import Testing

/// Storage is a layer: the engine speaks to it through the protocols in
/// `Sources/StratusEngine/Storage/` (``StoreTransaction`` and its groups), and only the
/// backends hold SQL: `Sources/StratusSQLite` (the one GRDB user) and `Sources/StratusPostgres`
/// (PostgreSQL's SQL through postgres-nio, never GRDB). So a backend implements those
/// protocols and nothing above them changes. (The engine target does not depend on GRDB at all;
/// this test also keeps GRDB and SQL out of every other target.)
@Suite struct StorageBoundaryTests {
    /// What marks a line as GRDB or SQL, and how to say it.
    static let markers: [(name: String, matches: @Sendable (String) -> Bool)] = [
        ("import GRDB", { $0.contains("import GRDB") }),
        ("sql:", { $0.contains("(sql:") || $0.contains(" sql:") }),
        ("cachedStatement", { $0.contains("cachedStatement") }),
        ("SELECT", { $0.contains("SELECT ") }),
        ("INSERT INTO", { $0.contains("INSERT INTO") }),
        ("UPDATE ... SET", { $0.contains("UPDATE ") && $0.contains("SET") }),
        ("DELETE FROM", { $0.contains("DELETE FROM") }),
        ("PRAGMA", { $0.contains("PRAGMA") }),
    ]

    /// The backend where GRDB and SQL belong.
    static let backend = "StratusSQLite/"
    /// The backend where SQL belongs, but not GRDB.
    static let postgresBackend = "StratusPostgres/"

    /// The bench's hand-made baselines: tables and SQL a person would write against plain SQLite
    /// or PostgreSQL, measured beside the engine's own workloads (`stratus bench`). Their SQL text
    /// is the point of them, so SQL may appear there; they run through the backends' floor
    /// connections, so GRDB may not.
    static let benchBaselineSQL: Set<String> = ["StratusBench/SQLiteBaseline.swift", "StratusBench/PostgresBaseline.swift"]

    @Test func noGRDBOrSQLOutsideTheSQLiteBackend() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?.allObjects as? [URL])
            .filter { $0.pathExtension == "swift" }
        let relative = { (file: URL) in file.path.replacingOccurrences(of: sources.path + "/", with: "") }
        let checked = files.filter { !relative($0).hasPrefix(Self.backend) && !relative($0).hasPrefix(Self.postgresBackend) }
        #expect(checked.count > 300, "the sources are found (\(checked.count) files outside the backend)")
        #expect(files.contains { relative($0).hasPrefix(Self.backend) }, "the backend's sources are found")
        var offenders: [String] = []
        for file in checked {
            let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            let markers = Self.benchBaselineSQL.contains(relative(file)) ? Self.markers.filter { $0.name == "import GRDB" } : Self.markers
            for (number, line) in lines.enumerated() {
                for marker in markers where marker.matches(line) {
                    offenders.append("\(relative(file)):\(number + 1) (\(marker.name)): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(offenders.isEmpty, "GRDB or SQL outside the backends; move it behind a storage protocol:\n\(offenders.joined(separator: "\n"))")
    }

    @Test func noGRDBInThePostgresBackend() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/StratusPostgres")
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil).filter { $0.pathExtension == "swift" }
        #expect(files.count > 10, "the PostgreSQL backend's sources are found")
        let offenders = try files.filter { try String(contentsOf: $0, encoding: .utf8).contains("import GRDB") }.map(\.lastPathComponent)
        #expect(offenders.isEmpty, "GRDB in the PostgreSQL backend: \(offenders)")
    }
}

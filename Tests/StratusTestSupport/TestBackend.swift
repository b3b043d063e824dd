import Foundation

/// The storage backends a test store can be opened on: the engine's behaviour tests run on
/// each (the `onEveryBackend` trait of `StratusEngineTests`), so a rule that only holds on
/// SQLite shows up as a failure on memory.
public enum TestBackend: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite
    case memory
    /// A schema of its own on the tests' PostgreSQL server (``TestPostgres``), dropped after.
    case postgres

    /// The backend ``TemporaryStore`` opens in this task: SQLite unless a test runs on another.
    @TaskLocal public static var current = TestBackend.sqlite

    /// The backends tests run on: all of them, or those named in `STRATUS_TEST_BACKENDS`
    /// (comma-separated, say `memory` or `sqlite,postgres`), to run one alone while looking into a failure.
    public static var chosen: [TestBackend] {
        guard let names = ProcessInfo.processInfo.environment["STRATUS_TEST_BACKENDS"] else { return allCases }
        return names.split(separator: ",").compactMap { TestBackend(rawValue: $0.trimmingCharacters(in: .whitespaces)) }
    }

    public var description: String { rawValue }
}

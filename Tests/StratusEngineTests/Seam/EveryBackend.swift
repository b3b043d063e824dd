import StratusTestSupport
import Testing

/// Runs each test of a suite once on every storage backend (``TestBackend/chosen``): its
/// ``TemporaryStore``s open on SQLite, then in memory. The engine's behaviour tests carry it,
/// so the engine is seen to need nothing of SQLite; a test about SQLite itself inside such a
/// suite says so with ``SQLiteOnly``.
struct EveryBackend: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    /// Scopes each test case (a suite's own scope would run its tests once per backend twice).
    func scopeProvider(for test: Test, testCase: Test.Case?) -> EveryBackend? { testCase == nil ? nil : self }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        let backends = test.traits.contains { $0 is SQLiteOnly } ? [.sqlite] : TestBackend.chosen
        for backend in backends {
            try await TestBackend.$current.withValue(backend) { try await function() }
        }
    }
}

/// Marks a test in an ``EveryBackend`` suite that is about SQLite itself (its file, its
/// tables, its statements): it runs on SQLite alone, saying why.
struct SQLiteOnly: TestTrait {
    let reason: String
}

extension Trait where Self == EveryBackend {
    /// Runs the suite's tests on every storage backend.
    static var onEveryBackend: Self { EveryBackend() }
}

extension Trait where Self == SQLiteOnly {
    /// Runs this test on SQLite alone, for `reason`.
    static func sqliteOnly(_ reason: String) -> Self { SQLiteOnly(reason: reason) }
}

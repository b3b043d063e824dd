import Foundation
import StratusEngine
import StratusSQLite
import StratusTestSupport

/// Runs the built `stratus` binary on a store in a temporary folder (removed at ``remove()``,
/// or when the last copy goes away) and captures what it prints.
struct StratusCLI {
    typealias Outcome = ProcessOutcome

    let folder: TemporaryDirectory
    var directory: URL { folder.url }
    var storePath: String { folder.storePath }

    init() throws {
        folder = try TemporaryDirectory("stratus-cli")
    }

    func remove() { folder.remove() }

    /// Makes an empty store at the temporary path, for tests whose first command only reads:
    /// such commands refuse a path with no store rather than make one.
    func makeStore() throws { _ = try Store(path: storePath) }

    /// The built `stratus`, beside the test executable (or `$STRATUS_BINARY`).
    static var binary: URL { StratusBinary.url }

    /// Runs `stratus ARGS --store <temporary store>` (the store option is added unless `store` is
    /// false; `STRATUS_STORE` names the temporary store either way).
    @discardableResult
    func run(_ arguments: [String], stdin: String? = nil, store: Bool = true) throws -> Outcome {
        try StratusBinary.run(arguments + (store ? ["--store", storePath] : []), environment: ["STRATUS_STORE": storePath], stdin: stdin)
    }

    /// Parses the JSON a `--json` run printed.
    func json(_ arguments: [String], stdin: String? = nil) throws -> [String: Any] {
        let outcome = try run(arguments + ["--json"], stdin: stdin)
        guard let object = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any] else {
            throw CocoaError(.coderReadCorrupt)
        }
        return object
    }
}

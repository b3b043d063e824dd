import Foundation

/// The built `stratus` executable, for the tests that run it as a user would (CLI, reliability,
/// server): where it is, and running it with its output captured.
///
/// A test target cannot import an executable target, so the tests that need the binary depend
/// on `stratus` only to have it built, and find it beside the test bundle.
public enum StratusBinary {
    /// The built `stratus`, beside the test executable (or `$STRATUS_BINARY`).
    public static var url: URL {
        if let path = ProcessInfo.processInfo.environment["STRATUS_BINARY"], !path.isEmpty { return URL(fileURLWithPath: path) }
        let testExecutable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return testExecutable.deletingLastPathComponent().appendingPathComponent("stratus")
    }

    /// A process for `stratus ARGS --store STORE`, not started. `STRATUS_STORE` is set to the
    /// store too (to a path that does not exist without one), so the user's own never leaks in.
    public static func process(_ arguments: [String], store: String?) -> Process {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments + (store.map { ["--store", $0] } ?? [])
        var environment = ProcessInfo.processInfo.environment
        environment["STRATUS_STORE"] = store ?? "/nonexistent/stratus-store.sqlite"
        process.environment = environment
        return process
    }

    /// Runs `stratus ARGS --store STORE` to the end and captures what it prints.
    @discardableResult
    public static func run(_ arguments: [String], store: String?, stdin: String? = nil,
                           timeout: Duration = ProcessRunner.defaultTimeout) throws -> ProcessOutcome {
        try ProcessRunner.run(process(arguments, store: store), stdin: stdin.map { Data($0.utf8) }, timeout: timeout)
    }

    /// Runs `stratus ARGS` exactly as given, in the tests' environment with `environment` on
    /// top, to the end, and captures what it prints.
    @discardableResult
    public static func run(_ arguments: [String], environment: [String: String], stdin: String? = nil,
                           timeout: Duration = ProcessRunner.defaultTimeout) throws -> ProcessOutcome {
        let merged = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        return try ProcessRunner.run(url, arguments, environment: merged, stdin: stdin.map { Data($0.utf8) }, timeout: timeout)
    }

    /// Runs `stratus ARGS --json --store STORE` and parses standard output; throws when it
    /// fails or prints anything but a JSON object.
    public static func json(_ arguments: [String], store: String?, stdin: String? = nil) throws -> [String: Any] {
        let outcome = try run(arguments + ["--json"], store: store, stdin: stdin)
        guard outcome.status == 0 else {
            throw NSError(domain: "stratus", code: Int(outcome.status), userInfo: [NSLocalizedDescriptionKey: "stratus \(arguments.joined(separator: " ")) exited \(outcome.status): \(outcome.stderr)"])
        }
        guard let object = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any] else {
            throw NSError(domain: "stratus", code: 0, userInfo: [NSLocalizedDescriptionKey: "not a JSON object: \(outcome.stdout)"])
        }
        return object
    }
}

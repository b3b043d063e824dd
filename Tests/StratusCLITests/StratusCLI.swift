import Foundation

/// Runs the built `stratus` binary on a temporary store and captures what it prints.
struct StratusCLI {
    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    let directory: URL
    var storePath: String { directory.appendingPathComponent("store.sqlite").path }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }

    /// The built `stratus`, beside the test executable (or `$STRATUS_BINARY`).
    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["STRATUS_BINARY"], !path.isEmpty { return URL(fileURLWithPath: path) }
        let testExecutable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return testExecutable.deletingLastPathComponent().appendingPathComponent("stratus")
    }

    /// Runs `stratus ARGS --store <temporary store>` (the store option is added unless `store` is false).
    @discardableResult
    func run(_ arguments: [String], stdin: String? = nil, store: Bool = true) throws -> Outcome {
        let process = Process()
        process.executableURL = StratusCLI.binary
        process.arguments = arguments + (store ? ["--store", storePath] : [])
        var environment = ProcessInfo.processInfo.environment
        environment["STRATUS_STORE"] = storePath
        process.environment = environment
        let output = Pipe(), errors = Pipe(), input = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                       stderr: String(decoding: errData, as: UTF8.self))
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

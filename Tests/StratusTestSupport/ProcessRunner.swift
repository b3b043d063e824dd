import Foundation

/// Runs a program to its end with its output captured and a time limit: the CLI, reliability
/// and server tests each wrote this for the built binary (and for openssl, setpriv, mount).
///
/// Standard input is fed, and both outputs drained, on threads of their own, so a large input
/// or output never fills a pipe and blocks the child; a child that runs past `timeout` is
/// killed (SIGTERM, then SIGKILL: a child may inherit the test runner's blocked SIGTERM) so a
/// hang fails its test instead of stopping the suite.
public enum ProcessRunner {
    /// Long enough for any one command of the suite, even under a sanitizer: only a hang reaches it.
    public static let defaultTimeout: Duration = .seconds(300)

    /// Runs `executable ARGUMENTS` in `environment` (nil: the tests' own) and waits for it.
    public static func run(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
                           stdin: Data? = nil, timeout: Duration = defaultTimeout) throws -> ProcessOutcome {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        return try run(process, stdin: stdin, timeout: timeout)
    }

    /// Runs a configured `process` (its standard streams are replaced) and waits for it.
    public static func run(_ process: Process, stdin: Data? = nil, timeout: Duration = defaultTimeout) throws -> ProcessOutcome {
        let output = Pipe(), errors = Pipe(), input = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()

        let streams = DispatchGroup()
        let outData = Locked(Data()), errorData = Locked(Data())
        let writer = input.fileHandleForWriting
        let outReader = output.fileHandleForReading, errorReader = errors.fileHandleForReading
        start(streams) {
            if let stdin { try? writer.write(contentsOf: stdin) }
            try? writer.close()
        }
        start(streams) { outData.set(outReader.readDataToEndOfFile()) }
        start(streams) { errorData.set(errorReader.readDataToEndOfFile()) }

        var timedOut = false
        if exited.wait(timeout: .now() + .nanoseconds(Int(timeout.nanoseconds))) == .timedOut {
            timedOut = true
            process.terminate()
            if exited.wait(timeout: .now() + .seconds(2)) == .timedOut {
                kill(process.processIdentifier, SIGKILL)
                exited.wait()
            }
        }
        process.waitUntilExit()
        // A grandchild that kept a pipe open must not hang the test either.
        _ = streams.wait(timeout: .now() + .seconds(10))
        return ProcessOutcome(status: process.terminationStatus, stdoutData: outData.value, stderrData: errorData.value,
                              signalled: process.terminationReason == .uncaughtSignal, timedOut: timedOut)
    }

    private static func start(_ group: DispatchGroup, _ body: @escaping @Sendable () -> Void) {
        group.enter()
        Thread.detachNewThread {
            body()
            group.leave()
        }
    }
}

extension Duration {
    /// The whole duration in nanoseconds.
    fileprivate var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}

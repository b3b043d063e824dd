import Foundation

/// `stratus serve --store STORE --port 0` running in the background, with the port it chose
/// read from the first line it prints. Stopped (SIGTERM) at ``stop()`` or when the value goes
/// away, if still running.
///
/// The server tests and the CLI's end-to-end tests both start the real server this way.
public final class ServedStore {
    public let process: Process
    /// The first line `serve` printed ("Serving CloudKit Web Services at http://127.0.0.1:PORT…").
    public let firstLine: String

    /// Starts the server (with `arguments` added to `serve`'s) on `port` (0: a free one) and
    /// waits for its first line. Its standard error goes to the file `standardError` names,
    /// else it is thrown away.
    public convenience init(store: String, arguments: [String] = [], port: Int = 0, standardError: URL? = nil) throws {
        try self.init(serving: ["--store", store], arguments: arguments, port: port, standardError: standardError)
    }

    /// Starts `serve --stores LOCATION` (a store per container and environment) as
    /// ``init(store:arguments:port:standardError:)`` starts one store's server.
    public convenience init(stores: String, arguments: [String] = [], port: Int = 0, standardError: URL? = nil) throws {
        try self.init(serving: ["--stores", stores], arguments: arguments, port: port, standardError: standardError)
    }

    private init(serving: [String], arguments: [String], port: Int, standardError: URL?) throws {
        process = Process()
        process.executableURL = StratusBinary.url
        process.arguments = ["serve"] + serving + ["--port", String(port)] + arguments
        let output = Pipe()
        process.standardOutput = output
        if let standardError {
            _ = FileManager.default.createFile(atPath: standardError.path, contents: nil)
            process.standardError = try FileHandle(forWritingTo: standardError)
        } else {
            process.standardError = FileHandle.nullDevice
        }
        try process.run()
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        firstLine = String(decoding: line, as: UTF8.self)
    }

    /// The port named in the first line, if it names one.
    public var port: Int? {
        firstLine.split(separator: ":").dropFirst(2).first.flatMap { Int($0.prefix { $0.isNumber }) }
    }

    /// Sends SIGTERM if the server still runs (it does not wait for it to end).
    public func stop() {
        if process.isRunning { process.terminate() }
    }

    /// Kills the server with SIGKILL, as a crash or an out-of-memory kill would, and waits for it to end.
    public func kill() {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit { stop() }
}

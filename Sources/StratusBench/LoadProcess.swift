import Foundation

/// Runs ``LoadClient`` in a process of its own (`stratus bench-load`, this same executable), so
/// that none of the client's work is counted as the server's.
public enum LoadProcess {
    /// The arguments `stratus bench-load` takes for `plan`.
    static func arguments(_ plan: LoadClient.Plan) -> [String] {
        ["bench-load", "--port", String(plan.port), "--path", plan.path, "--body", plan.bodyTemplate,
         "--connections", String(plan.connections), "--requests", String(plan.requests)]
    }

    static func run(_ plan: LoadClient.Plan) throws -> LoadClient.Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = arguments(plan)
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0,
              let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let latencies = object["latencies_ms"] as? [Double], let seconds = object["seconds"] as? Double,
              let statuses = object["statuses"] as? [String: Int] else {
            throw LoadClient.Failure(description: "the load client failed (exit \(process.terminationStatus)): \(message.prefix(400))")
        }
        return LoadClient.Outcome(latencies: latencies, statuses: Dictionary(uniqueKeysWithValues: statuses.compactMap { key, value in Int(key).map { ($0, value) } }),
                                  seconds: seconds)
    }

    /// What `stratus bench-load` prints: the outcome as one JSON object.
    public static func json(_ outcome: LoadClient.Outcome) throws -> String {
        let object: [String: Any] = [
            "latencies_ms": outcome.latencies, "seconds": outcome.seconds,
            "statuses": Dictionary(uniqueKeysWithValues: outcome.statuses.map { (String($0.key), $0.value) }),
        ]
        return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }
}

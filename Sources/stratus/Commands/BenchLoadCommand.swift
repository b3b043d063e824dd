import ArgumentParser
import StratusBench

/// The bench's load client in a process of its own (`stratus bench` starts it for the `serve-*`
/// workloads): keep-alive HTTP/1.1 on loopback, printing every latency as JSON. Not for users.
struct BenchLoadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-load",
        abstract: "The bench's HTTP load client (run by stratus bench).",
        shouldDisplay: false
    )

    @Option(help: "The server's loopback port.") var port: Int
    @Option(help: "The request path with its query.") var path: String
    @Option(help: "The body; {client}, {step} and {slot} (the step modulo 50) are replaced.") var body: String
    @Option(help: "Connections at once.") var connections: Int = 4
    @Option(help: "Requests per connection.") var requests: Int = 100

    func validate() throws {
        guard (1...65_535).contains(port) else { throw ValidationError("--port must be 1-65535") }
        guard connections >= 1, requests >= 1 else { throw ValidationError("--connections and --requests must be at least 1") }
    }

    func run() throws {
        let outcome = try LoadClient(plan: .init(port: port, path: path, bodyTemplate: body, connections: connections, requests: requests)).run()
        print(try LoadProcess.json(outcome))
    }
}

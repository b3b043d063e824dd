import Foundation
import StratusPostgres

/// The PostgreSQL server the tests use: the one `scripts/test` started (its URL in
/// `STRATUS_TEST_POSTGRES_URL`), or else a throwaway cluster this process starts itself with
/// `scripts/postgres` on first use and stops when it exits. So `swift test` alone runs the
/// PostgreSQL tests too, and none is ever skipped for lack of a server; a cluster that cannot
/// be started fails those tests with the script's message.
public enum TestPostgres {
    private static let started = Locked<Result<String, TestPostgresError>?>(nil)

    /// The server's URL (its database, no schema).
    public static func url() throws -> String {
        if let url = ProcessInfo.processInfo.environment["STRATUS_TEST_POSTGRES_URL"], !url.isEmpty { return url }
        return try started.withLock { result in
            if result == nil { result = startCluster() }
            return try result!.get()
        }
    }

    /// The PEM file of the authority that signed the server's TLS certificate (for localhost and
    /// 127.0.0.1): `STRATUS_TEST_POSTGRES_CA`, or the one of the cluster this process started.
    public static func certificateAuthority() throws -> String {
        if let path = ProcessInfo.processInfo.environment["STRATUS_TEST_POSTGRES_CA"], !path.isEmpty { return path }
        _ = try url()
        guard let folder = startedFolder.withLock({ $0 }) else {
            throw TestPostgresError(message: "STRATUS_TEST_POSTGRES_URL is set without STRATUS_TEST_POSTGRES_CA: start the server with scripts/postgres start, which exports both.")
        }
        return folder + "/tls/ca.crt"
    }

    private static let startedFolder = Locked<String?>(nil)

    /// A fresh, empty schema's URL for one test's store (``TemporaryStore`` drops it after).
    public static func freshStoreURL() throws -> String {
        try url() + "?schema=t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }

    /// Drops a test store's schema when the last store on it goes away.
    public final class Lease: @unchecked Sendable {
        let url: String

        init(url: String) { self.url = url }

        deinit { TestPostgres.drop(url) }
    }

    /// Drops the store at `url` (its schema and everything in it).
    public static func drop(_ url: String) {
        guard let location = try? PostgresLocation(url: url) else { return }
        try? PostgresBackend.drop(location)
    }

    private static func startCluster() -> Result<String, TestPostgresError> {
        do {
            let cluster = try Cluster.start()
            startedFolder.withLock { $0 = cluster.folder }
            ClusterStopper.shared.arm(script: Cluster.script, folder: cluster.folder)
            return .success(cluster.url)
        } catch {
            return .failure(TestPostgresError(message: "PostgreSQL tests need a server: STRATUS_TEST_POSTGRES_URL is not set and \(error.message)"))
        }
    }

    /// A throwaway PostgreSQL cluster of one test's own (`scripts/postgres start`), for a test
    /// that stops the database under a running server; the tests' shared one must stay up.
    public struct Cluster: Sendable {
        /// Its database's URL (no schema).
        public let url: String
        /// Its folder, which ``stop()`` removes.
        public let folder: String

        static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/postgres").path

        /// Initializes and starts a cluster on a free loopback port.
        public static func start() throws(TestPostgresError) -> Cluster {
            try run(["start"])
        }

        /// Starts a streaming replica of this cluster (a hot standby, read-only) on another port.
        public func standby() throws(TestPostgresError) -> Cluster {
            try Self.run(["standby", folder])
        }

        /// Runs the script and reads the cluster it printed.
        private static func run(_ arguments: [String]) throws(TestPostgresError) -> Cluster {
            let outcome = try? ProcessRunner.run(URL(fileURLWithPath: script), arguments, timeout: .seconds(600))
            guard let outcome, outcome.status == 0 else {
                throw TestPostgresError(message: "`\(script) \(arguments.joined(separator: " "))` failed:\n\(outcome.map { String(decoding: $0.stderrData, as: UTF8.self) } ?? "it did not run")")
            }
            var url: String?
            var folder: String?
            let output = String(decoding: outcome.stdoutData, as: UTF8.self)
            for line in output.split(separator: "\n") {
                if line.hasPrefix("export STRATUS_TEST_POSTGRES_URL=") { url = String(line.dropFirst("export STRATUS_TEST_POSTGRES_URL=".count)) }
                if line.hasPrefix("export STRATUS_TEST_POSTGRES_DIR=") { folder = String(line.dropFirst("export STRATUS_TEST_POSTGRES_DIR=".count)) }
            }
            guard let url, let folder else { throw TestPostgresError(message: "`\(script) start` printed no URL:\n\(output)") }
            return Cluster(url: url, folder: folder)
        }

        /// Stops the cluster at once (connections are cut) and removes its folder.
        public func stop() {
            _ = try? ProcessRunner.run(URL(fileURLWithPath: Self.script), ["stop", folder], timeout: .seconds(60))
        }
    }
}

/// Why the PostgreSQL tests have no server.
public struct TestPostgresError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

/// Stops the cluster this process started when the process exits.
private final class ClusterStopper: @unchecked Sendable {
    static let shared = ClusterStopper()
    private var script = ""
    private var folder = ""

    func arm(script: String, folder: String) {
        self.script = script
        self.folder = folder
        atexit {
            let stopper = ClusterStopper.shared
            _ = try? ProcessRunner.run(URL(fileURLWithPath: stopper.script), ["stop", stopper.folder], timeout: .seconds(60))
        }
    }
}

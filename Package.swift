// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Stratus",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "stratus", targets: ["stratus"]),
        .library(name: "StratusModel", targets: ["StratusModel"]),
        .library(name: "StratusCloud", targets: ["StratusCloud"]),
        .library(name: "StratusCKWS", targets: ["StratusCKWS"]),
        .library(name: "StratusEngine", targets: ["StratusEngine"]),
        .library(name: "StratusSQLite", targets: ["StratusSQLite"]),
        .library(name: "StratusMemoryStore", targets: ["StratusMemoryStore"]),
        .library(name: "StratusPredicates", targets: ["StratusPredicates"]),
        .library(name: "StratusTerminal", targets: ["StratusTerminal"]),
        .library(name: "StratusDashboard", targets: ["StratusDashboard"]),
        .library(name: "StratusRemote", targets: ["StratusRemote"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        // The CKWS client of remote mode (not URLSession: one HTTP stack on NIO, as the server's).
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // TLS for `stratus serve` beyond loopback (through Hummingbird's TLS channel).
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // The team backend's PostgreSQL client.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // `swift package generate-documentation --target StratusEngine`: the engine's API docs.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // Value types shared by the predicate language and the engine.
        .target(name: "StratusModel"),
        // Terminal column widths of text (CJK, emoji, combining marks): one table for the
        // predicate language's carets and the terminal's cells.
        .target(name: "StratusText"),
        // The NSPredicate format language under CloudKit's rules. Pure logic, no I/O.
        .target(name: "StratusPredicates", dependencies: ["StratusModel", "StratusText"]),
        // CloudKit's vocabulary, shared by every backend, transport and front end: records and
        // their IDs, zones, databases, pages of changes, save policies and CloudKit's errors.
        .target(name: "StratusCloud", dependencies: ["StratusModel", "StratusPredicates"]),
        // The CloudKit Web Services JSON: one codec for records, deletions, per-item errors, zones,
        // subscriptions and change tokens, shared by the server, the CLI's JSON and import/export.
        .target(name: "StratusCKWS", dependencies: ["StratusModel", "StratusPredicates", "StratusCloud"]),
        // SQLite's process-wide options, set before its first use (`sqlite3_config` is variadic).
        .target(name: "CSQLiteSetup", linkerSettings: [.linkedLibrary("sqlite3")]),
        // The record engine: CloudKit's rules over storage protocols; it names no backend.
        .target(
            name: "StratusEngine",
            dependencies: ["StratusModel", "StratusPredicates", "StratusCloud", "StratusCKWS"],
            // A file sees only the members of modules it imports.
            swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]
        ),
        // The embedded backend: the engine's storage protocols on SQLite through GRDB, with the
        // migrations, the page cache and the SQLite side of bulk imports. The only GRDB user.
        .target(
            name: "StratusSQLite",
            dependencies: [
                "StratusModel", "StratusPredicates", "StratusCloud", "StratusCKWS", "CSQLiteSetup", "StratusEngine",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API, for the bulk write path's statements (DirectStatement).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                // A bitmap of row ids (BitSet), for finding the records that lack a field.
                .product(name: "BitCollections", package: "swift-collections"),
            ]
        ),
        // The second backend: the engine's storage protocols over value-type tables held in
        // memory, with real transactions (a write works on a copy, committed whole or dropped).
        // The engine's behaviour tests run on it beside SQLite; tools can use it for scratch stores.
        .target(
            name: "StratusMemoryStore",
            dependencies: ["StratusModel", "StratusPredicates", "StratusCloud", "StratusEngine"],
            swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]
        ),
        // The team backend: the engine's storage protocols on PostgreSQL through postgres-nio,
        // one schema per store, a per-zone counter row so change sequences follow commit order.
        .target(
            name: "StratusPostgres",
            dependencies: [
                "StratusModel", "StratusPredicates", "StratusCloud", "StratusEngine", "StratusMemoryStore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]
        ),
        // Opens a store by its location, choosing the backend the location names (a file:
        // SQLite). The front ends open stores here; the engine names no backend.
        .target(name: "StratusStores", dependencies: ["StratusCloud", "StratusEngine", "StratusSQLite", "StratusPostgres"]),
        // `stratus bench`: every workload on Stratus and on hand-made SQLite tables.
        .target(
            name: "StratusBench",
            dependencies: [
                "StratusModel", "StratusPredicates", "StratusCloud", "StratusCKWS", "StratusEngine", "StratusSQLite", "StratusPostgres", "StratusStores", "StratusDashboard",
                "StratusServer", "StratusRemote",
            ]
        ),
        // The CloudKit Web Services server: routes, authentication, the CKWS JSON of each endpoint
        // over the engine's public API. No SQL here.
        .target(
            name: "StratusServer",
            dependencies: [
                "StratusModel", "StratusPredicates", "StratusCloud", "StratusCKWS", "StratusEngine", "StratusStores",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                // HTTPS for serving beyond loopback (`--tls-cert`, `--tls-key`).
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // The socket errors a server start can meet (an address in use), and HTTP/1.0
                // connections, which Hummingbird's version-free requests cannot tell apart.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                // Server-to-server keys: P-256 ECDSA signatures.
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The CloudKit Web Services client: a remote container (iCloud or another `stratus serve`)
        // behind the same `CloudService` a local store has: sessions and their token rotation,
        // server-to-server keys, paging, splitting and retries, CKWS errors as typed reasons.
        .target(
            name: "StratusRemote",
            dependencies: [
                "StratusModel", "StratusPredicates", "StratusCloud", "StratusCKWS", "StratusEngine",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                // Server-to-server keys: P-256 ECDSA signatures.
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]
        ),
        .systemLibrary(name: "CNcurses", providers: [.apt(["libncurses-dev"])]),
        // A small terminal UI toolkit that knows nothing of records.
        .target(name: "StratusTerminal", dependencies: ["CNcurses", "StratusText"]),
        // The dashboard: state, update, views and the key map, in the Elm architecture.
        .target(name: "StratusDashboard", dependencies: ["StratusCloud", "StratusCKWS", "StratusEngine", "StratusTerminal", "StratusModel", "StratusPredicates"]),
        .executableTarget(
            name: "stratus",
            dependencies: [
                "StratusModel", "StratusPredicates", "StratusCloud", "StratusCKWS", "StratusEngine", "StratusBench", "StratusDashboard", "StratusTerminal", "StratusSQLite", "StratusStores",
                "StratusServer", "StratusRemote",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            plugins: ["BuildCommitPlugin"]
        ),
        // Writes the commit being built into the `stratus` target, for `stratus --version`.
        .plugin(name: "BuildCommitPlugin", capability: .buildTool()),
        // What the test targets share: temporary folders and stores, running the built binary,
        // a lock, bind mounts, waiting for a condition. Not a test target itself, and not
        // dependent on `stratus` (an executable cannot be imported).
        .target(name: "StratusTestSupport", dependencies: ["StratusCloud", "StratusEngine", "StratusSQLite", "StratusMemoryStore", "StratusPostgres"], path: "Tests/StratusTestSupport"),
        .testTarget(name: "StratusTestSupportTests", dependencies: ["StratusTestSupport"]),
        .testTarget(name: "StratusModelTests", dependencies: ["StratusModel"]),
        .testTarget(name: "StratusPredicatesTests", dependencies: ["StratusPredicates", "StratusModel"]),
        .testTarget(name: "StratusCKWSTests", dependencies: ["StratusCKWS", "StratusCloud", "StratusModel", "StratusPredicates"]),
        .testTarget(name: "StratusEngineTests", dependencies: ["StratusCloud", "StratusCKWS", "StratusEngine", "StratusSQLite", "StratusMemoryStore", "StratusPostgres", "StratusStores", "StratusModel", "StratusPredicates", "StratusTestSupport"]),
        .testTarget(name: "StratusTerminalTests", dependencies: ["StratusTerminal", "StratusTestSupport"]),
        .testTarget(
            name: "StratusDashboardTests",
            dependencies: ["StratusDashboard", "StratusCloud", "StratusCKWS", "StratusEngine", "StratusSQLite", "StratusTerminal", "StratusModel", "StratusTestSupport"],
            exclude: ["Snapshots"]
        ),
        // Crash safety, several processes, fuzzing inputs, bad input: runs the built binary too.
        .testTarget(
            name: "StratusReliabilityTests",
            dependencies: [
                "stratus", "StratusCloud", "StratusCKWS", "StratusEngine", "StratusModel", "StratusPredicates", "StratusTerminal", "StratusTestSupport", "StratusSQLite",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // Real HTTP on loopback against the server, in process and through the built binary.
        // async-http-client: HTTPS trusting a certificate made at test time, and the team
        // server's load on several processes (a lean client, many requests at once).
        .testTarget(name: "StratusServerTests", dependencies: [
            "StratusServer", "StratusCloud", "StratusEngine", "StratusSQLite", "StratusPostgres", "StratusModel", "stratus", "StratusTestSupport",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
        ]),
        // The CKWS client against a real server on loopback: sessions, rotation, paging, errors.
        .testTarget(name: "StratusRemoteTests", dependencies: [
            "StratusRemote", "StratusServer", "StratusCloud", "StratusCKWS", "StratusEngine", "StratusModel", "StratusTestSupport",
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        // The bench's own parts (the dashboard probe), without running a workload.
        .testTarget(name: "StratusBenchTests", dependencies: ["StratusBench", "StratusCKWS", "StratusCloud", "StratusEngine", "StratusSQLite", "StratusStores", "StratusTestSupport"]),
        // Runs the built `stratus` binary, so it depends on it to have it built.
        // The engine too: a test of the command line's advice provokes the error on the engine
        // first and checks its reason, then runs the binary for the hint.
        .testTarget(name: "StratusCLITests", dependencies: ["stratus", "StratusCloud", "StratusEngine", "StratusSQLite", "StratusPostgres", "StratusTestSupport"]),
    ]
)

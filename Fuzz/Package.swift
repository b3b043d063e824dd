// swift-tools-version: 6.0
// The fuzz targets, built apart from the main package with -sanitize=fuzzer by `scripts/fuzz`.
// The engine's sources are symlinks into ../Sources; the checks each target makes are in
// Sources/StratusFuzzing, which the test suite also runs (seeded and bounded).
import PackageDescription

let package = Package(
    name: "StratusFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        .target(name: "StratusModel"),
        .target(name: "StratusPredicates", dependencies: ["StratusModel"]),
        .target(name: "StratusEngine", dependencies: ["StratusModel", "StratusPredicates", .product(name: "GRDB", package: "GRDB.swift")]),
        .target(name: "StratusFuzzing", dependencies: ["StratusModel", "StratusPredicates", "StratusEngine"]),
        .target(name: "CLibFuzzer"),
        .executableTarget(name: "FuzzPredicate", dependencies: ["StratusFuzzing", "CLibFuzzer"]),
        .executableTarget(name: "FuzzRecordJSON", dependencies: ["StratusFuzzing", "CLibFuzzer"]),
        .executableTarget(name: "FuzzTokens", dependencies: ["StratusFuzzing", "CLibFuzzer"]),
        .executableTarget(name: "FuzzSchema", dependencies: ["StratusFuzzing", "CLibFuzzer"]),
    ]
)

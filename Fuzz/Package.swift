// swift-tools-version: 6.0
// The fuzz targets, built apart from the main package with -sanitize=fuzzer by `scripts/fuzz`.
// They use the main package's own library products (a path dependency on ".."), so the fuzzed
// code is exactly what the product builds, with no file list here to drift. The checks each
// target makes are in Sources/StratusFuzzing, which the test suite also runs (seeded and bounded).
import PackageDescription

let stratus: [Target.Dependency] = ["StratusModel", "StratusPredicates", "StratusCloud", "StratusCKWS", "StratusEngine", "StratusSQLite"]
    .map { .product(name: $0, package: "Stratus") }

let package = Package(
    name: "StratusFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Stratus", path: ".."),
    ],
    targets: [
        .target(name: "StratusFuzzing", dependencies: stratus),
        .target(name: "CLibFuzzer"),
        .executableTarget(name: "FuzzPredicate", dependencies: ["StratusFuzzing", "CLibFuzzer"]),
        .executableTarget(name: "FuzzRecordJSON", dependencies: ["StratusFuzzing", "CLibFuzzer"]),
        .executableTarget(name: "FuzzTokens", dependencies: ["StratusFuzzing", "CLibFuzzer"]),
        .executableTarget(name: "FuzzSchema", dependencies: ["StratusFuzzing", "CLibFuzzer"]),
    ]
)

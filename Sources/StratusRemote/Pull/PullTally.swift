import Foundation
import StratusCKWS

/// What a pull changed in the local store, for its summary.
public struct PullTally: Sendable {
    public init() {}

    public var zonesNew = 0
    public var zonesChanged = 0
    public var zonesDeleted = 0
    public var recordsNew = 0
    public var recordsChanged = 0
    public var recordsDeleted = 0
    public var assetsDownloaded = 0
    public var assetBytes: Int64 = 0
    public var assetsSkipped = 0
    public var recordsWithoutAssets = 0

    public var lines: [String] {
        var lines = [
            "zones    \(zonesNew) new, \(zonesChanged) changed, \(zonesDeleted) deleted",
            "records  \(recordsNew) new, \(recordsChanged) changed, \(recordsDeleted) deleted",
            "assets   \(assetsDownloaded) downloaded (\(PullTally.bytes(assetBytes)))",
        ]
        if assetsSkipped > 0 {
            lines.append("skipped  \(assetsSkipped) assets (--no-assets): \(recordsWithoutAssets) records were written without their asset fields")
        }
        return lines
    }

    public var json: JSONValue {
        func count(_ value: Int) -> JSONValue { .integer(Int64(value)) }
        return .object([
            ("zones", .object([("new", count(zonesNew)), ("changed", count(zonesChanged)), ("deleted", count(zonesDeleted))])),
            ("records", .object([("new", count(recordsNew)), ("changed", count(recordsChanged)), ("deleted", count(recordsDeleted))])),
            ("assets", .object([("downloaded", count(assetsDownloaded)), ("bytes", .integer(assetBytes)), ("skipped", count(assetsSkipped))])),
        ])
    }

    /// `812 bytes`, `1.4 MB`.
    public static func bytes(_ count: Int64) -> String {
        if count < 1024 { return "\(count) bytes" }
        let units = ["KB", "MB", "GB", "TB"]
        var value = Double(count) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return String(format: "%.1f %@", value, units[unit])
    }
}

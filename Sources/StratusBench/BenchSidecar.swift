import Foundation

/// What a built benchmark store remembers, so `--store` can reuse it: its size, how long
/// building took, and the tokens taken after 10k changes and near the end.
struct BenchSidecar: Codable {
    var records = 0
    var stratusSaveMilliseconds = 0.0
    var baselineSaveMilliseconds = 0.0
    /// SQLite alone writing the same rows in the same transactions (see ``SQLiteSaveFloor``).
    var floorSaveMilliseconds: Double?
    var stratusSaveBytes: Double?
    var floorSaveBytes: Double?
    var storeBytes: Double?
    var tokenAfter10k: String?
    var sequenceAfter10k: Int?
    var tokenNearEnd: String?
    var sequenceNearEnd: Int?

    static func load(_ path: String) -> BenchSidecar? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? JSONDecoder().decode(BenchSidecar.self, from: data)
    }

    func save(_ path: String) {
        if let data = try? JSONEncoder().encode(self) { try? data.write(to: URL(fileURLWithPath: path)) }
    }
}

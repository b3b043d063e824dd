import Foundation
import StratusEngine
import StratusPostgres
import StratusSQLite
import StratusStores

/// The save workload's fair floor: the database alone writing the rows Stratus wrote, in
/// transactions of the same size, into an empty store made with the same schema
/// (``SQLiteSaveFloor``, ``PostgresSaveFloor``).
extension BenchRunner {
    struct SaveFloorMeasurement {
        var milliseconds: Double
        var bytesWritten: Double?
    }

    func measureSaveFloor() throws -> SaveFloorMeasurement {
        switch place! {
        case .folder(let folder):
            return try measureSaveFloor(copying: place.storeLocation, into: folder.appendingPathComponent("floor.sqlite").path)
        case .postgres(let url, let schema):
            let floor = try PostgresSaveFloor(copying: url, into: schema + "_floor")
            defer { try? floor.remove() }
            var milliseconds = 0.0
            for range in floor.batches(recordsPerTransaction: CloudDatabase.maximumBatchSize) {
                let batch = try floor.load(range)
                milliseconds += try BenchMeasurement.once { try floor.write(batch) }
            }
            // PostgreSQL's server process writes the pages, not this one: no bytes to count here.
            return SaveFloorMeasurement(milliseconds: milliseconds, bytesWritten: nil)
        }
    }

    private func measureSaveFloor(copying source: String, into target: String) throws -> SaveFloorMeasurement {
        let files = ["", "-wal", "-shm"].map { target + $0 }
        for file in files { try? FileManager.default.removeItem(atPath: file) }
        defer { for file in files { try? FileManager.default.removeItem(atPath: file) } }
        _ = try StoreOpener.open(target, ifMissing: .create)
        let floor = try SQLiteSaveFloor(copying: source, into: target)
        var milliseconds = 0.0
        var bytes: Double? = 0
        for range in floor.batches(recordsPerTransaction: CloudDatabase.maximumBatchSize) {
            let batch = try floor.load(range)
            let before = BenchMeasurement.bytesWritten()
            milliseconds += try BenchMeasurement.once { try floor.write(batch) }
            if let before, let after = BenchMeasurement.bytesWritten() { bytes? += after - before } else { bytes = nil }
        }
        return SaveFloorMeasurement(milliseconds: milliseconds, bytesWritten: bytes)
    }
}

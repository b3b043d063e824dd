import Foundation
import StratusEngine
import StratusPostgres
import StratusSQLite
import StratusStores

/// The `import` workload: `stratus import` of the exported venues into a new store, against the
/// database alone copying the rows that import wrote into another new store with the same tables.
extension BenchRunner {
    func measureImport() throws -> BenchResult {
        switch place! {
        case .folder(let folder): try measureSQLiteImport(in: folder)
        case .postgres(_, let schema): try measurePostgresImport(schema: schema)
        }
    }

    /// Imports the exported venues into a new store, then has SQLite alone copy the rows that
    /// import wrote into another new store with the same tables: what the indexes cost anyway.
    /// The floor writes its store the way the import wrote its own (in place under a rollback
    /// journal, or through the log); the other way's floor is reported beside it.
    private func measureSQLiteImport(in directory: URL) throws -> BenchResult {
        let file = scratch.appendingPathComponent("export.jsonl")
        if !FileManager.default.fileExists(atPath: file.path) { _ = try exportVenues(to: file) }
        let imported = directory.appendingPathComponent("import.sqlite").path
        let copied = directory.appendingPathComponent("import-raw.sqlite").path
        func remove(_ paths: [String]) {
            for path in paths {
                for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            }
        }
        remove([imported, copied])
        defer {
            remove([imported, copied])
            try? FileManager.default.removeItem(at: file)
        }
        var written = 0
        var inPlace = false
        let bytesBefore: Double?, bytesAfter: Double?
        let stratus: Double, size: Double
        // The imported store closes before the floor reads it (SQLite folds its log into the
        // file), so the floor reads the file, not pages through a log a still-open store left.
        do {
            let target = try StoreOpener.open(imported, ifMissing: .create)
            BenchMeasurement.settleDisk()
            bytesBefore = BenchMeasurement.bytesWritten()
            stratus = try BenchMeasurement.once {
                let handle = try FileHandle(forReadingFrom: file)
                defer { try? handle.close() }
                written = try target.database(.private).importRecords(lines: handle, progress: { inPlace = $0.inPlace })
            }
            bytesAfter = BenchMeasurement.bytesWritten()
            // File and log as the import left them, before closing folds the log in.
            size = BenchMeasurement.storeBytes(imported)
        }
        func floor(inPlace: Bool) throws -> Double {
            remove([copied])
            _ = try StoreOpener.open(copied, ifMissing: .create)
            BenchMeasurement.settleDisk()
            return try BenchMeasurement.once { try SQLiteImportFloor.copyRows(of: imported, into: copied, inPlace: inPlace) }
        }
        let base = try floor(inPlace: inPlace)
        let otherBase = try floor(inPlace: !inPlace)
        var extras: [(String, Double)] = [("stratus_records_per_s", Double(written) / stratus * 1000),
                                          ("baseline_records_per_s", Double(written) / base * 1000),
                                          ("in_place", inPlace ? 1 : 0),
                                          (inPlace ? "wal_floor_ms" : "in_place_floor_ms", otherBase),
                                          (inPlace ? "wal_floor_ratio" : "in_place_floor_ratio", stratus / otherBase)]
        if let bytesBefore, let bytesAfter, size > 0 {
            extras += [("bytes_written", bytesAfter - bytesBefore), ("store_bytes", size), ("written_ratio", (bytesAfter - bytesBefore) / size)]
        }
        return BenchResult(name: BenchWorkload.import.rawValue, stratusMilliseconds: stratus, baselineMilliseconds: base, extras: extras)
    }

    /// On PostgreSQL: the import into a new schema, and PostgreSQL copying its rows table by
    /// table into another (``PostgresImportFloor``).
    private func measurePostgresImport(schema: String) throws -> BenchResult {
        let file = scratch.appendingPathComponent("export.jsonl")
        if !FileManager.default.fileExists(atPath: file.path) { _ = try exportVenues(to: file) }
        let importSchema = schema + "_import", copySchema = schema + "_import_copy"
        let importURL = try place.postgresURL(schema: importSchema), copyURL = try place.postgresURL(schema: copySchema)
        func remove() {
            for url in [importURL, copyURL] { try? PostgresBackend.drop(PostgresLocation(url: url)) }
        }
        remove()
        defer {
            remove()
            try? FileManager.default.removeItem(at: file)
        }
        var written = 0
        let stratus: Double
        do {
            let target = try StoreOpener.open(importURL, ifMissing: .create)
            stratus = try BenchMeasurement.once {
                let handle = try FileHandle(forReadingFrom: file)
                defer { try? handle.close() }
                written = try target.database(.private).importRecords(lines: handle, progress: { _ in })
            }
        }
        let base = try BenchMeasurement.once { try PostgresImportFloor.copyRows(url: importURL, from: importSchema, into: copySchema) }
        return BenchResult(name: BenchWorkload.import.rawValue, stratusMilliseconds: stratus, baselineMilliseconds: base,
                           extras: [("stratus_records_per_s", Double(written) / stratus * 1000), ("baseline_records_per_s", Double(written) / base * 1000)])
    }
}

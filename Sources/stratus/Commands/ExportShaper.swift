import ArgumentParser
import Foundation
import StratusEngine
import StratusCKWS
import StratusModel

/// The shapes `stratus export` writes.
enum ExportFormat: String, ExpressibleByArgument, CaseIterable {
    case jsonl, json, csv
}

/// Turns the JSON lines the engine exports into the format asked for, as they stream by:
/// as they are (jsonl), inside one `{"records": [...]}` document (json), or as CSV rows.
struct ExportShaper {
    let format: ExportFormat
    let output: (Data) throws -> Void
    private let csv: RecordCSV?
    private var pending = Data()
    private var wroteRecord = false

    /// `recordTypes`: the schema, read only for CSV (its columns).
    init(format: ExportFormat, recordTypes: () throws -> [RecordTypeSchema], recordType: String?,
         output: @escaping (Data) throws -> Void) throws {
        self.format = format
        self.output = output
        switch format {
        case .jsonl:
            csv = nil
        case .json:
            csv = nil
            try output(Data("{\"records\": [\n".utf8))
        case .csv:
            let types = try recordTypes().filter { recordType == nil ? $0.name != "Users" : $0.name == recordType }
            do {
                csv = try RecordCSV(types: types)
            } catch {
                throw CommandFailure.failed("cannot write CSV: \(error)")
            }
            try output(Data(csv!.headerLine.utf8))
        }
    }

    /// Takes a chunk of JSON lines (it may end inside a line).
    mutating func write(_ chunk: Data) throws {
        guard format != .jsonl else { return try output(chunk) }
        pending.append(chunk)
        var out = Data()
        var start = pending.startIndex
        while let newline = pending[start...].firstIndex(of: 0x0A) {
            try shape(pending[start..<newline], into: &out)
            start = newline + 1
        }
        pending.removeSubrange(pending.startIndex..<start)
        if !out.isEmpty { try output(out) }
    }

    mutating func finish() throws {
        var out = Data()
        if !pending.isEmpty { try shape(pending[...], into: &out) }
        pending.removeAll()
        if format == .json { out.append(Data("\n]}\n".utf8)) }
        if !out.isEmpty { try output(out) }
    }

    private mutating func shape(_ line: Data, into out: inout Data) throws {
        guard line.contains(where: { $0 != 0x20 && $0 != 0x0D }) else { return }
        switch format {
        case .jsonl:
            out.append(line)
        case .json:
            if wroteRecord { out.append(Data(",\n".utf8)) }
            out.append(line)
        case .csv:
            let record = try RecordJSON.decode(try JSONParser.parse(utf8: line), zoneID: .default)
            out.append(Data(csv!.line(record).utf8))
        }
        wroteRecord = true
    }
}

import ArgumentParser
import Foundation
import StratusEngine
import StratusCloud
import StratusCKWS

struct FetchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Fetch records of any types by name from one zone."
    )

    @OptionGroup var common: CommonOptions
    @Argument(help: "Record names.") var names: [String]
    @Option(help: "Only these fields (comma-separated).") var keys: String?
    @Flag(help: "System fields only.") var noKeys = false
    @Option(help: "Write the content of asset fields into this folder, named by checksum.") var assets: String?

    func validate() throws {
        if keys != nil && noKeys { throw ValidationError("--keys and --no-keys exclude each other") }
    }

    func run() throws {
        if assets != nil { try common.localOnly("--assets") }
        let database = try common.service()
        let zoneID = try common.zoneID()
        let desiredKeys: [String]? = noKeys ? [] : keys.map(parseKeyList)
        let results = try database.records(for: names.map { RecordID(recordName: $0, zoneID: zoneID) }, desiredKeys: desiredKeys)
        var missing = 0
        var json: [JSONValue] = []
        for item in results {
            switch item.result {
            case .success(let record):
                if assets != nil { try writeAssets(of: record, store: try common.openStore()) }
                if common.json { json.append(RecordJSON.encode(record)) } else { Output.line(RecordPrinter.describe(record)) }
            case .failure(let error):
                missing += 1
                if common.json {
                    json.append(ErrorReporter.json(recordName: item.recordID.recordName, error: error))
                } else {
                    Output.warn("\(item.recordID.recordName): \(error)")
                }
            }
        }
        if common.json { Output.json(.object([("records", .array(json))])) }
        if missing > 0 { throw CommandFailure(message: "", exitCode: 1) }
    }

    private func writeAssets(of record: Record, store: Store) throws {
        guard let assets else { return }
        try FileManager.default.createDirectory(atPath: assets, withIntermediateDirectories: true)
        for value in record.fields.values {
            for case .asset(let asset) in value.elements {
                guard let data = try store.assetData(checksum: asset.fileChecksum) else { continue }
                let path = (assets as NSString).appendingPathComponent(asset.fileChecksum)
                try data.write(to: URL(fileURLWithPath: path))
                if !common.json { Output.warn("wrote \(path)") }
            }
        }
    }
}

import ArgumentParser
import Foundation
import StratusEngine

struct SaveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "save",
        abstract: "Save records given as CloudKit Web Services JSON.",
        discussion: """
            Input: one record object, an array of them, or one object per line. A record is
            {"recordName", "recordType", "recordChangeTag"?, "fields": {"name": {"value": ..., "type": "STRING"}}}.
            An asset field may name a file to upload: {"value": {"file": "photo.jpg"}, "type": "ASSET"}.
            More than 400 records are saved in batches of 400.
            """
    )

    @OptionGroup var common: CommonOptions
    @Argument(help: "A JSON file, or - (the default) for standard input.") var file: String = "-"
    @Flag(help: "Make each batch all-or-nothing (custom zones).") var atomic = false
    @Option(help: "if-unchanged (default), changed-keys or all-keys.") var policy: String = RecordSavePolicy.ifServerRecordUnchanged.rawValue
    @Flag(name: .customLong("import"), help: "Restore records as `stratus export` wrote them (JSON lines), keeping change tags and created / modified times and users; existing records are replaced, missing zones made.")
    var importing = false

    func run() throws {
        if importing { return try RecordImportRunner(common: common, file: file).run() }
        guard let savePolicy = RecordSavePolicy(rawValue: policy) else {
            throw CommandFailure.usage("--policy must be if-unchanged, changed-keys or all-keys, not '\(policy)'")
        }
        let text = try readInput()
        let documents: [JSONValue]
        do {
            documents = try JSONParser.parseSequence(text)
        } catch {
            throw CommandFailure.failed("\(file == "-" ? "standard input" : file): malformed JSON at \(error)")
        }
        var objects: [JSONValue] = []
        for document in documents {
            if case .array(let items) = document { objects += items } else { objects.append(document) }
        }
        let database = try common.database()
        let store = database.store
        var records: [Record] = []
        for (index, object) in objects.enumerated() {
            do {
                records.append(try RecordJSON.decode(object, zoneID: common.zoneID) { path in
                    try store.putAsset(Data(contentsOf: URL(fileURLWithPath: path)))
                })
            } catch {
                throw CommandFailure.failed("record \(index + 1) of \(objects.count): \(error)")
            }
        }
        var outcomes: [JSONValue] = []
        var failures = 0
        var start = 0
        while start < records.count {
            let batch = Array(records[start..<min(start + CloudDatabase.maximumBatchSize, records.count)])
            let result = try database.modifyRecords(saving: batch, savePolicy: savePolicy, atomically: atomic)
            for item in result.saveResults {
                switch item.result {
                case .success(let record):
                    outcomes.append(RecordJSON.encode(record))
                    if !common.json { Output.line("saved \(record.recordType) \(record.recordName)  tag \(record.recordChangeTag ?? "")") }
                case .failure(let error):
                    failures += 1
                    outcomes.append(ErrorReporter.json(recordName: item.recordID.recordName, error: error))
                    if !common.json {
                        Output.warn("failed \(item.recordID.recordName): \(error)")
                    }
                }
            }
            start += CloudDatabase.maximumBatchSize
        }
        if common.json { Output.json(.object([("records", .array(outcomes))])) }
        if failures > 0 {
            throw CommandFailure(message: "error: partialFailure (2): \(failures) of \(records.count) records were not saved.", exitCode: 1)
        }
    }

    private func readInput() throws -> String {
        let data: Data
        if file == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let contents = FileManager.default.contents(atPath: file) else {
                throw CommandFailure.usage("cannot read \(file)")
            }
            data = contents
        }
        guard let text = String(data: data, encoding: .utf8) else { throw CommandFailure.failed("\(file) is not UTF-8 text") }
        return text
    }
}

import ArgumentParser
import StratusEngine
import StratusCloud
import StratusCKWS

struct DeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete records by name, and what points at them with DELETE_SELF."
    )

    @OptionGroup var common: CommonOptions
    @Argument(help: "Record names.") var names: [String]
    @Flag(help: "All or nothing (custom zones).") var atomic = false

    func run() throws {
        let database = try common.service()
        let zoneID = try common.zoneID()
        var failures = 0
        var json: [JSONValue] = []
        var start = 0
        while start < names.count {
            let batch = names[start..<min(start + CloudDatabase.maximumBatchSize, names.count)].map { RecordID(recordName: $0, zoneID: zoneID) }
            let result = try database.modifyRecords(deleting: batch, atomically: atomic)
            for item in result.deleteResults {
                switch item.result {
                case .success:
                    json.append(DeletionJSON.record(item.recordID.recordName))
                    if !common.json { Output.line("deleted \(item.recordID.recordName)") }
                case .failure(let error):
                    failures += 1
                    json.append(ErrorReporter.json(recordName: item.recordID.recordName, error: error))
                    if !common.json { Output.warn("failed \(item.recordID.recordName): \(error)") }
                }
            }
            for cascaded in result.cascadeDeletedRecordIDs {
                json.append(DeletionJSON.record(cascaded.recordName, adding: [("cascade", .bool(true))]))
                if !common.json { Output.line("deleted \(cascaded.recordName) (it pointed at a deleted record with DELETE_SELF)") }
            }
            start += CloudDatabase.maximumBatchSize
        }
        if common.json { Output.json(.object([("records", .array(json))])) }
        if failures > 0 { throw CommandFailure(message: "", exitCode: 1) }
    }
}

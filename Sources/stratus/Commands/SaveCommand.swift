import ArgumentParser
import Foundation
import StratusEngine
import StratusCloud
import StratusCKWS
import StratusModel
import StratusStores

/// What `stratus save` reads.
enum SaveInputFormat: String, ExpressibleByArgument, CaseIterable {
    case json, csv
}

struct SaveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "save",
        abstract: "Save records given as CloudKit Web Services JSON.",
        discussion: """
            Input: one record object, an array of them, or one object per line; or a CloudKit Web Services \
            response or request as captured from iCloud: {"records": [...]} (records/query, lookup, changes), \
            {"zones": [{"zoneID", "records"}]} (changes/zone), {"operations": [...]} (records/modify). A response \
            whose records carry the server's change tags is a snapshot: load it with --import, which keeps the \
            tags, times and users (save refuses it under the default policy). A record is \
            {"recordName", "recordType", "recordChangeTag"?, "fields": {"name": {"value": ..., "type": "STRING"}}}; \
            the type may be left out, or given as cktool writes it (stringType, int64ListType ...), and \
            timestamps may be milliseconds since 1970. Entries with "deleted": true and delete operations delete \
            the record. A zoneID's ownerRecordName (a real iCloud user) is ignored: the zone is the acting \
            user's zone of that name; --owner-map SOURCE=ALIAS lands the zones of that owner with a user of this \
            store instead (their private database, or in --db shared the zone they shared).
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
    @Flag(help: "Make the custom zones the records name that do not exist yet (else a missing zone is an error).")
    var createZones = false
    @Option(help: "json (records, arrays, JSON lines or CKWS documents) or csv (as `stratus export --format csv` writes); default: csv for a .csv file, else json.")
    var format: SaveInputFormat?
    @Option(help: "With --format csv: the record type of rows that have no recordType column.")
    var type: String?
    @Option(help: "OWNER=ALIAS: zones the document says OWNER (an ownerRecordName from iCloud) owns land with this store's user ALIAS (repeatable).")
    var ownerMap: [String] = []

    func validate() throws {
        if importing && format == .csv {
            throw ValidationError("--import restores JSON as `stratus export` writes it; save a CSV file without --import")
        }
    }

    func run() throws {
        if importing {
            try common.localOnly("save --import")
            return try RecordImportRunner(common: common, file: file).run()
        }
        guard let savePolicy = RecordSavePolicy(rawValue: policy) else {
            throw CommandFailure.usage("--policy must be if-unchanged, changed-keys or all-keys, not '\(policy)'")
        }
        let text = try readInput()
        if (format ?? (file.lowercased().hasSuffix(".csv") ? .csv : .json)) == .csv {
            try common.localOnly("save --format csv (it reads the schema)")
            let database = try common.database(ifMissing: .create)
            return try save(try csvRecords(text, store: database.store), deletions: [], policy: savePolicy, in: database)
        }
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
        if savePolicy == .ifServerRecordUnchanged, objects.contains(where: RecordDocument.isTaggedResponse) {
            let name = file == "-" ? "FILE" : file
            throw CommandFailure.failed("\(file == "-" ? "standard input" : file) is a response captured from a server: its records carry that server's change tags, so it is a snapshot to load as it is, not changes to save here; load it with `stratus save --import \(name)` (which makes the zones it names)")
        }
        if common.remote != nil { return try saveRemotely(objects, policy: savePolicy) }
        // Records that all carry change tags (as `stratus export` writes them) into a store that
        // has none of them could only each fail as an update of nothing: say what to do once.
        let allTagged = savePolicy == .ifServerRecordUnchanged && !objects.isEmpty
            && objects.allSatisfy { !RecordDocument.isWrapper($0) && $0["recordChangeTag"]?.stringValue != nil }
        if allTagged && !StoreOpener.storeExists(at: common.storePath) { throw snapshotRefusal() }
        let database = try common.database(ifMissing: .create)
        let store = database.store
        let owners = try ownerMapping(store)
        let (saves, deletions) = try entries(objects, owners: owners) { path in
            try store.putAsset(Data(contentsOf: URL(fileURLWithPath: path)))
        }
        if allTagged, deletions.isEmpty, try !holdsAny(saves.map(\.recordID), in: database) { throw snapshotRefusal() }
        // In the private database each owner's zones are that user's own: saved as them.
        guard database.scope == .private, !ownerMap.isEmpty else { return try save(saves, deletions: deletions, policy: savePolicy, in: database) }
        let byOwner = Dictionary(grouping: saves, by: \.recordID.zoneID.ownerName)
        let deletionsByOwner = Dictionary(grouping: deletions, by: \.zoneID.ownerName)
        for owner in Set(byOwner.keys).union(deletionsByOwner.keys).sorted() {
            let target = owner == ZoneID.defaultOwnerName ? database : store.database(.private, caller: .user(owner), device: common.device)
            let own = { (zoneID: ZoneID) in ZoneID(zoneName: zoneID.zoneName) }
            try save((byOwner[owner] ?? []).map { record in
                var moved = record
                moved.recordID = RecordID(recordName: record.recordName, zoneID: own(record.recordID.zoneID))
                return moved
            }, deletions: (deletionsByOwner[owner] ?? []).map { RecordID(recordName: $0.recordName, zoneID: own($0.zoneID)) },
            policy: savePolicy, in: target)
        }
    }

    /// Why a file of tagged records the store does not hold is not saved: it is a snapshot.
    private func snapshotRefusal() -> CommandFailure {
        let name = file == "-" ? "FILE" : file
        return .failed("\(file == "-" ? "standard input" : file) holds records with change tags that this store does not have (as `stratus export` and captured responses write them): it is a snapshot to load as it is; load it with `stratus save --import \(name)` (which makes the zones it names)")
    }

    /// Whether the store holds any of these records (a missing zone holds none).
    private func holdsAny(_ recordIDs: [RecordID], in database: CloudDatabase) throws -> Bool {
        let reader = database.withoutFaults
        for start in stride(from: 0, to: recordIDs.count, by: 400) {
            let batch = Array(recordIDs[start..<min(start + 400, recordIDs.count)])
            guard let fetched = try? reader.records(for: batch) else { continue }
            if fetched.contains(where: { if case .success = $0.result { return true } else { return false } }) { return true }
        }
        return false
    }

    /// The document's entries: records to save and IDs to delete, in order.
    private func entries(_ objects: [JSONValue], owners: @escaping RecordDocument.OwnerMapping = RecordDocument.actingUser,
                         uploadAsset: @escaping RecordJSON.AssetUploader) throws -> ([Record], [RecordID]) {
        var saves: [Record] = []
        var deletions: [RecordID] = []
        for (index, object) in objects.enumerated() {
            let entries: [RecordDocument.Entry]
            do {
                entries = try RecordDocument.entries(in: object, zoneID: try common.zoneID(), owners: owners, uploadAsset: uploadAsset)
            } catch {
                let place = RecordDocument.isWrapper(object) && objects.count == 1 ? "" : "record \(index + 1) of \(objects.count): "
                throw CommandFailure.failed(place + "\(error)")
            }
            for entry in entries {
                switch entry {
                case .save(let record): saves.append(record)
                case .delete(let recordID, _): deletions.append(recordID)
                case .skipped(let name, let reason):
                    if !common.json { Output.warn("skipped \(name ?? "an entry"): it holds no record (\(reason))") }
                }
            }
        }
        return (saves, deletions)
    }

    /// `--remote`: the document's records saved and deleted over CloudKit Web Services, as the
    /// signed-in user, printed as a local save prints them.
    private func saveRemotely(_ objects: [JSONValue], policy: RecordSavePolicy) throws {
        if !ownerMap.isEmpty { try common.localOnly("--owner-map") }
        let database = try common.service()
        let (saves, deletions) = try entries(objects) { path in
            throw CommandFailure.usage("\(path): asset files are not sent to a remote; a record there can name an asset it holds by its fileChecksum")
        }
        try save(saves, deletions: deletions, policy: policy, in: database)
    }

    /// `--owner-map OWNER=ALIAS` as the document reader's mapping: a mapped owner becomes that
    /// user's record name (the acting user's own zones keep the default owner).
    private func ownerMapping(_ store: Store) throws -> RecordDocument.OwnerMapping {
        var map: [String: String] = [:]
        let acting = try common.caller(in: store).userRecordName
        for entry in ownerMap {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw CommandFailure.usage("--owner-map takes OWNER=ALIAS (an ownerRecordName from the file, then a user of this store), not '\(entry)'")
            }
            let user = try store.user(named: parts[1]).recordName
            map[parts[0]] = user == acting ? ZoneID.defaultOwnerName : user
        }
        let mapped = map
        return { owner in mapped[owner] ?? ZoneID.defaultOwnerName }
    }

    /// The rows of a CSV file as records of `--type` (or of their recordType column).
    private func csvRecords(_ text: String, store: Store) throws -> [Record] {
        let types = try store.recordTypes()
        var records: [Record]
        do {
            records = try RecordCSV.records(from: text, recordType: type, zoneID: try common.zoneID()) { name in types.first { $0.name == name } }
        } catch let problem as RecordCSV.Problem {
            throw CommandFailure.failed("\(file == "-" ? "standard input" : file), \(problem)")
        }
        // A CSV cell names an asset by checksum and carries no bytes: a cell this store cannot
        // resolve is left out (saying which), so it does not sink its record.
        var leftOut: [String] = []
        var held: [String: Bool] = [:]  // each checksum looked up once, however many cells name it
        func isHeld(_ checksum: String) -> Bool {
            if let known = held[checksum] { return known }
            let found = (try? store.assetData(checksum: checksum)) != nil
            held[checksum] = found
            return found
        }
        for index in records.indices {
            for (name, value) in records[index].fields.sorted(by: { $0.key < $1.key }) where !value.assetChecksums.allSatisfy(isHeld) {
                records[index][name] = nil
                leftOut.append("\(records[index].recordName).\(name)")
            }
        }
        if !leftOut.isEmpty {
            let shown = leftOut.prefix(5).joined(separator: ", ") + (leftOut.count > 5 ? ", …" : "")
            Output.warn("left out \(leftOut.count) asset \(leftOut.count == 1 ? "cell" : "cells") whose files this store does not hold (\(shown)): CSV names an asset without its bytes; `stratus export` (JSON lines) carries them")
        }
        return records
    }

    /// Saves in batches of 400, then deletes; prints each outcome and fails when any failed.
    /// The store is opened once per process: a second pool on the same file in one process
    /// would share its POSIX locks and release them when it closes.
    private func save(_ saves: [Record], deletions: [RecordID], policy savePolicy: RecordSavePolicy, in database: any CloudDatabaseService) throws {
        try ZonePreparer(database: database, create: createZones).prepare(saves.map(\.recordID.zoneID) + deletions.map(\.zoneID))
        var outcomes: [JSONValue] = []
        var failures = 0
        var start = 0
        while start < saves.count {
            let batch = Array(saves[start..<min(start + CloudDatabase.maximumBatchSize, saves.count)])
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
        failures += try delete(deletions, in: database, outcomes: &outcomes)
        let taggedAndMissing = outcomes.contains { $0["serverErrorCode"]?.stringValue == CloudKitError.Code.unknownItem.serverErrorCode }
            && saves.contains { $0.recordChangeTag != nil }
        if taggedAndMissing && !common.json {
            Output.warn("hint: records captured from iCloud carry iCloud's change tags; `stratus save --import FILE` loads them as they are, and --policy all-keys saves over what is here")
        }
        if common.json { Output.json(.object([("records", .array(outcomes))])) }
        if failures > 0 {
            throw CommandFailure(message: "error: partialFailure (2): \(failures) of \(saves.count + deletions.count) records were not \(deletions.isEmpty ? "saved" : "saved or deleted").", exitCode: 1, resultsPrinted: true)
        }
    }

    /// Applies the document's deleted entries; a record already absent counts as deleted, as a
    /// replayed change feed expects. Returns how many failed.
    private func delete(_ recordIDs: [RecordID], in database: any CloudDatabaseService, outcomes: inout [JSONValue]) throws -> Int {
        var failures = 0
        var start = 0
        while start < recordIDs.count {
            let batch = Array(recordIDs[start..<min(start + CloudDatabase.maximumBatchSize, recordIDs.count)])
            let result = try database.modifyRecords(deleting: batch, atomically: false)
            for item in result.deleteResults {
                let name = item.recordID.recordName
                switch item.result {
                case .success:
                    outcomes.append(DeletionJSON.record(name))
                    if !common.json { Output.line("deleted \(name)") }
                case .failure(let error) where error.code == .unknownItem:
                    outcomes.append(DeletionJSON.record(name))
                    if !common.json { Output.line("deleted \(name) (it was not there)") }
                case .failure(let error):
                    failures += 1
                    outcomes.append(ErrorReporter.json(recordName: name, error: error))
                    if !common.json { Output.warn("failed to delete \(name): \(error)") }
                }
            }
            start += CloudDatabase.maximumBatchSize
        }
        return failures
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

private extension FieldValue {
    /// The checksums of the assets this value holds (a list's too).
    var assetChecksums: [String] {
        switch self {
        case .asset(let asset): return [asset.fileChecksum]
        case .list(_, let items): return items.flatMap(\.assetChecksums)
        default: return []
        }
    }
}

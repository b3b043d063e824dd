import Foundation
import StratusModel
import StratusCloud

extension CloudDatabase {
    /// Writes records exactly as given, system fields included, as a restore does: the change
    /// tag, creation and modification times and users of each record are kept (a missing one
    /// is filled in as a save would). A record that exists is replaced. Missing custom zones of
    /// the private database are made.
    ///
    /// One transaction for all of it: fields are checked against the schema as a save checks
    /// them (a development store grows its schema, a production store accepts only declared
    /// types and fields), index rows are written through the same indexer as saves, and every
    /// record takes its zone's next change sequence, so change playback and queries see the
    /// imported records. Subscriptions do not fire for imported records.
    ///
    /// - Throws: the first record's problem (its name in the message); nothing is written.
    /// `assets` is content the records' asset fields may point at (stored first, in the same
    /// transaction).
    @discardableResult
    public func importRecords(_ records: [Record], assets: [Data] = []) throws -> Int {
        var handed = false
        return try importRecords(batches: {
            defer { handed = true }
            return handed ? nil : ImportBatch(records: records, assets: assets)
        })
    }

    /// `importRecords(_:)` for input of any size: `nextBatch` is called, inside the one write
    /// transaction, until it returns nil, and `progress` after each batch with the records
    /// written so far. Memory stays bounded: only a batch and a bounded buffer of index rows
    /// are held. An error from `nextBatch` or from a record rolls everything back.
    @discardableResult
    public func importRecords(batches nextBatch: () throws -> ImportBatch?, progress: (Int) -> Void = { _ in }) throws -> Int {
        try importRecords(batches: nextBatch, progress: progress, indexRowLimit: RecordImporter.indexRowLimit)
    }

    /// `indexRowLimit`: index rows held before a sorted write (tests make it small). `scopes`:
    /// told the zone and type row ids met, for batches prepared ahead with them
    /// (``ImportBatch/prepare(scopes:)``). `written`: handed each batch once its records are
    /// written, to be freed elsewhere (the caller holding no copy, a batch prepared here is
    /// changed in place, not copied, and freeing it is not left to this thread).
    func importRecords(batches nextBatch: () throws -> ImportBatch?, progress: (Int) -> Void, indexRowLimit: Int,
                       scopes: ImportScopes? = nil, written: (ImportBatch) -> Void = { _ in }) throws -> Int {
        let count = try store.write { db in
            try db.prepareForBulkWrite(importing: true)
            var importer = try RecordImporter(database: self, db: db, indexRowLimit: indexRowLimit, scopes: scopes)
            var count = 0
            while var batch = try nextBatch() {
                try importer.store(assets: batch.assets)
                if batch.prepared == nil { batch.prepare(scopes: scopes) }
                // Each record and its preparation are borrowed where they lie: an array's
                // subscript copied both (a retain of every field and back) on the writer.
                try batch.records.withUnsafeBufferPointer { records in
                    try (batch.prepared ?? []).withUnsafeBufferPointer { prepared in try importer.add(records, prepared: prepared) }
                }
                count += batch.records.count
                progress(count)
                written(batch)
            }
            try importer.finish()
            return count
        }
        // Statistics after a large import only: a caller importing page by page (a pull)
        // gathers them once, at its end.
        if count >= RecordImporter.statisticsAfter { store.gatherPlannerStatisticsAfterBulkWrite() }
        return count
    }
}

/// The work of one `importRecords` call inside its transaction: a batching driver over the
/// ``WritePlan``, which checks each record as a save is checked (a restore cannot reach what
/// the caller could not write) and keeps the zones' sequences and the schema it grows, while
/// this writes the rows many to a statement and their index rows through a sorted buffer.
package struct RecordImporter {
    let database: CloudDatabase
    let db: StoreTransaction
    /// The rules every record meets; its refusals name their record.
    var plan: WritePlan
    /// `field_value` and `reference_edge` rows, written sorted at the end (or when full).
    let buffer: any IndexRowBuffering
    /// Records with a larger row id were written by this import: their index rows may still
    /// be in `buffer`.
    let lastRowIDBefore: Int64
    /// Records an import writes before it ends by gathering the planner's statistics
    /// (``Store/gatherPlannerStatistics()``).
    static let statisticsAfter = 1_000
    /// Records this import replaced: their new rows may still be in `buffer` too.
    var replaced: Set<Int64> = []
    /// The id the next inserted record row takes (rows go in many to a statement, so ids are
    /// given here rather than by SQLite).
    var nextRowID: Int64
    /// The record table's many-rows insert, made once.
    let recordRows: any BulkRecordInserting
    /// Told each zone and type met, for the reading thread's full-text rows; nil when nothing
    /// prepares batches ahead.
    let scopes: ImportScopes?
    /// The zone and type row ids told to `scopes` in this generation: an import that goes
    /// back and forth between zones tells each pair once, not at every switch.
    var told: Set<ScopePair> = []
    /// The pair of the record staged last, which `told` holds (most records repeat it).
    var lastTold: ScopePair?

    /// The record types met, each as the catalog had it when met: a staged record names its
    /// type by its place here, so no type (three tables) is copied for each record. A type that
    /// grows is met again, at a new place.
    var typesMet: [SchemaCatalog.TypeEntry] = []
    /// The place in `typesMet` of each type as the catalog has it now.
    var typeSlots: [String: Int] = [:]
    /// The type ``typeSlot(named:)`` found last.
    var lastTypeSlot: (name: String, slot: Int)?
    /// The indexer of the last record indexed, by its zone and its type's place in `typesMet`.
    var lastIndexer: (zoneRowID: Int64, typeSlot: Int, indexer: any RecordIndexing)?

    /// What of a record's preparation (``PreparedRecord``) holds for the writer as it is.
    struct ReadyAhead {
        /// Its full-text row is the one the indexer would make.
        var text = false
        /// Its declared fields were found under the schema the writer has.
        var fields = false
    }

    struct ScopePair: Hashable {
        var zoneRowID: Int64
        var typeID: Int64
    }
    /// The schema's generation in `scopes`: records prepared under another are checked again.
    var schemaGeneration = 0
    /// When a record without dates is taken to be made, in milliseconds.
    let now: Int64

    /// About 64 bytes each: a million rows held is some 64 MB besides their strings.
    package static let indexRowLimit = 1_000_000

    init(database: CloudDatabase, db: StoreTransaction, indexRowLimit: Int, scopes: ImportScopes? = nil) throws {
        self.scopes = scopes
        self.database = database
        self.db = db
        plan = try WritePlan(database: database, db: db, namesRecords: true)
        now = FieldValue.milliseconds(plan.now)
        buffer = db.records.makeIndexBuffer(limit: indexRowLimit)
        lastRowIDBefore = try db.records.maxRowID()
        nextRowID = lastRowIDBefore + 1
        recordRows = try db.records.makeBulkInserter()
        schemaGeneration = scopes?.newGeneration() ?? 0
    }

    /// Writes `records` in order, 256 rows to an insert statement
    /// (``BulkRecordInserting/insert(_:firstID:)``): each chunk's records are checked and
    /// given their rows first, then inserted together, then given their index rows (or, for a
    /// name the zone holds already, replaced) one by one in order, so the store ends as if
    /// each had been written alone. `prepared[i]` is from ``ImportBatch/prepare()`` for
    /// `records[i]`, whose fields it normalized.
    ///
    /// Records, preparations, rows and types are handed on as pointers to where they lie: a
    /// value read from a buffer and passed to a mutating method is copied first (the method
    /// might change the memory), and a copy retains every string and table the value holds.
    mutating func add(_ records: UnsafeBufferPointer<Record>, prepared: UnsafeBufferPointer<PreparedRecord>) throws {
        guard let firstRecord = records.baseAddress, let firstPrepared = prepared.baseAddress else { return }
        var rows: [RecordRow] = [], typeSlots: [Int] = [], readies: [ReadyAhead] = []
        // For each record of the chunk, its row's place in `rows` (nil: nothing to write).
        var places: [Int?] = []
        var start = 0
        while start < records.count {
            rows.removeAll(keepingCapacity: true)
            typeSlots.removeAll(keepingCapacity: true)
            readies.removeAll(keepingCapacity: true)
            places.removeAll(keepingCapacity: true)
            // Outside the private database a save is checked against the record it replaces, so
            // a name met twice ends the chunk: the second is checked after the first is written.
            var names = Set<String>()
            var end = start
            while end < records.count, places.count < recordRows.rowsPerChunk {
                if plan.gateReadsReplacedRecords, !names.insert(records[end].recordName).inserted { break }
                if let (row, slot, ready) = try stage(firstRecord + end, prepared: firstPrepared + end) {
                    places.append(rows.count)
                    rows.append(row)
                    typeSlots.append(slot)
                    readies.append(ready)
                } else {
                    places.append(nil)
                }
                end += 1
            }
            let firstID = nextRowID
            let skipped = try rows.withUnsafeBufferPointer { try recordRows.insert($0, firstID: firstID) }
            nextRowID += Int64(rows.count)
            // The types as staged (a later record of the chunk may have grown one since).
            let types = typesMet
            try rows.withUnsafeBufferPointer { rows in
                try types.withUnsafeBufferPointer { types in
                    for index in start..<end {
                        guard let place = places[index - start], let row = rows.baseAddress.map({ $0 + place }) else { continue }
                        let slot = typeSlots[place]
                        let id = skipped.contains(place) ? nil : firstID + Int64(place)
                        try complete(firstRecord + index, prepared: firstPrepared + index, row: row, type: types.baseAddress! + slot,
                                     typeSlot: slot, ready: readies[place], insertedAs: id)
                    }
                }
            }
            start = end
        }
    }

    /// Checks a record (its fields are normalized; `prepared` was computed from them) and works
    /// out its row and the place of its type in ``typesMet``; nil when there is nothing to write.
    private mutating func stage(_ record: UnsafePointer<Record>, prepared: UnsafePointer<PreparedRecord>) throws
        -> (RecordRow, typeSlot: Int, ready: ReadyAhead)? {
        let fields = record.pointee.fields
        let schemaFreeChecked = prepared.pointee.passesSchemaFreeChecks
        if !schemaFreeChecked { try plan.checkName(record.pointee.recordName) }
        let zone = try plan.zoneMakingMissing(record.pointee.recordID.zoneID, recordName: record.pointee.recordName)
        var declaredSlot = schemaFreeChecked ? typeSlot(named: record.pointee.recordType) : nil
        var ready = ReadyAhead()
        if let slot = declaredSlot {
            // Every field declared with its value's type (checked by the reading thread against
            // this very schema, or here): the schema has nothing to refuse or to learn from this
            // record (most records of an import).
            let typeID = typesMet[slot].id
            ready.fields = prepared.pointee.declaredFields != nil && prepared.pointee.scope.map { $0 == (zone.id, typeID, schemaGeneration) } == true
            if !ready.fields, !typesMet[slot].declares(fields) { declaredSlot = nil }
        }
        let slot: Int
        // A record whose fields are all its type's points at an asset only if the type has one.
        var mayPointAtAssets = true
        if let declaredSlot {
            slot = declaredSlot
            // Its full-text row, when made ahead for this zone and type, is the one the indexer
            // would make.
            let typeID = typesMet[slot].id
            ready.text = typesMet[slot].searchesEveryString && prepared.pointee.scope.map { ($0.zoneRowID, $0.typeID) == (zone.id, typeID) } == true
            mayPointAtAssets = typesMet[slot].declaresAssets
        } else {
            try plan.validate(recordName: record.pointee.recordName, recordType: record.pointee.recordType, fields: fields,
                              schemaFreeChecked: schemaFreeChecked)
            try growSchema(typeName: record.pointee.recordType, fields: fields, recordName: record.pointee.recordName)
            guard let grown = typeSlot(named: record.pointee.recordType) else { return nil }
            slot = grown
        }
        if plan.gateReadsReplacedRecords {
            let existing = try db.records.find(zoneRowID: zone.id, name: record.pointee.recordName)
            try plan.checkSave(recordName: record.pointee.recordName, recordType: record.pointee.recordType, parent: record.pointee.parent?.recordName,
                               existing: existing, zone: zone)
        }
        if mayPointAtAssets { try plan.checkAssets(fields, recordName: record.pointee.recordName) }
        let blob = prepared.pointee.blob
        try WritePlan.checkSize(blob, recordName: record.pointee.recordName)
        let sequence = plan.nextSequence(zone)
        let created = record.pointee.creationDate.map(FieldValue.milliseconds) ?? now
        let modified = record.pointee.modificationDate.map(FieldValue.milliseconds) ?? created
        let createdBy = record.pointee.creatorUserRecordName ?? database.user
        let typeID = typesMet[slot].id
        let row = RecordRow(zoneRowID: zone.id, name: record.pointee.recordName, typeID: typeID, blob: blob,
                                      changeTag: record.pointee.recordChangeTag ?? ChangeTag.make(), sequence: sequence,
                                      createdAt: created, createdBy: createdBy, modifiedAt: modified,
                                      modifiedBy: record.pointee.lastModifiedUserRecordName ?? createdBy,
                                      parent: record.pointee.parent?.recordName, changedKeys: nil)
        if try plan.zoneHasTombstones(zone.id) { try db.records.clearTombstone(of: row) }
        let pair = ScopePair(zoneRowID: zone.id, typeID: typeID)
        if let scopes, pair != lastTold, told.insert(pair).inserted {
            // The reading thread makes the full-text rows of this zone and type's records from now on.
            scopes.record(zone: record.pointee.recordID.zoneID, type: record.pointee.recordType, zoneRowID: zone.id, typeID: typeID,
                          fields: typesMet[slot].fields)
        }
        lastTold = pair
        return (row, slot, ready)
    }

    /// The place in ``typesMet`` of the catalog's type `name` as it is now; nil when the
    /// catalog has no such type.
    private mutating func typeSlot(named name: String) -> Int? {
        // Records of an import come type by type: the last type is compared, not hashed.
        if let last = lastTypeSlot, last.name == name { return last.slot }
        let slot: Int
        if let known = typeSlots[name] {
            slot = known
        } else {
            guard let entry = plan.catalog.type(named: name) else { return nil }
            slot = typesMet.count
            typesMet.append(entry)
            typeSlots[name] = slot
        }
        lastTypeSlot = (name, slot)
        return slot
    }

    /// A record given its row, after its chunk's insert: its index rows when its row went in as
    /// `insertedAs`, or else (its zone held the name) the replace path. Most restored records
    /// are new, so the insert is tried first instead of looking every name up. `type` is
    /// ``typesMet``'s entry at `typeSlot`.
    private mutating func complete(_ record: UnsafePointer<Record>, prepared: UnsafePointer<PreparedRecord>, row: UnsafePointer<RecordRow>,
                                   type: UnsafePointer<SchemaCatalog.TypeEntry>, typeSlot: Int, ready: ReadyAhead, insertedAs id: Int64?) throws {
        if let id {
            let zoneRowID = row.pointee.zoneRowID
            if lastIndexer?.zoneRowID != zoneRowID || lastIndexer?.typeSlot != typeSlot {
                lastIndexer = (zoneRowID, typeSlot, db.records.indexer(zoneRowID: zoneRowID, type: type.pointee, buffer: buffer))
            }
            // Called where it lies (set just above, so never nil): a copy would retain its type's tables.
            try lastIndexer!.indexer.add(recordID: id, fields: record.pointee.fields, tokens: prepared.pointee.tokens,
                                         text: ready.text ? prepared.pointee.text : nil,
                                         declaredFields: ready.fields ? prepared.pointee.declaredFields : nil)
            return
        }
        guard let existing = try db.records.find(zoneRowID: row.pointee.zoneRowID, name: record.pointee.recordName) else {
            throw CloudKitError(.internalError, "Record '\(record.pointee.recordName)' could be neither inserted nor found.")
        }
        if existing.typeID != type.pointee.id {
            try plan.checkType(of: existing, savedAs: record.pointee.recordType, recordName: record.pointee.recordName)
        }
        // Its old rows are removed from the tables, so any this import still holds go first.
        if existing.id > lastRowIDBefore || replaced.contains(existing.id) { try buffer.flush() }
        replaced.insert(existing.id)
        try db.records.replace(existing, oldType: type.pointee, update: .all(row.pointee), fields: record.pointee.fields,
                                         tokens: prepared.pointee.tokens, type: type.pointee, buffer: buffer)
    }

    /// Persists the types and fields a development store learns from the record.
    private mutating func growSchema(typeName: String, fields: [String: FieldValue], recordName: String) throws {
        let grew = try plan.growSchema(typeName: typeName, fields: fields, recordName: recordName)
        // The type is met again as it is now.
        if grew {
            typeSlots.removeAll()
            lastTypeSlot = nil
        }
        // What the reading thread was told of the schema no longer holds.
        if grew, let scopes {
            schemaGeneration = scopes.newGeneration()
            told.removeAll()
            lastTold = nil
        }
    }

    /// Stores asset content the batch carries, so its records can point at it.
    mutating func store(assets: [Data]) throws { try plan.store(assets: assets) }

    mutating func finish() throws {
        try buffer.flush()
        try plan.finish()
    }
}

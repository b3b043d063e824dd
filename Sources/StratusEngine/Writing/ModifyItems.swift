import StratusCloud

/// The items of one modify: its saves with their rules, and its deletes with the change tag
/// each must match (nil: none). Saves and deletes are kept apart, as ``ModifyRecordsResult``
/// lists them.
struct ModifyItems {
    var saving: [Record]
    var rules: [SaveRule]
    var deleting: [RecordID]
    var deleteTags: [String?]

    /// Saves all under one rule, deletes without a change tag: CloudKit's own modify.
    init(saving: [Record], rule: SaveRule, deleting: [RecordID]) {
        self.saving = saving
        rules = Array(repeating: rule, count: saving.count)
        self.deleting = deleting
        deleteTags = Array(repeating: nil, count: deleting.count)
    }

    init(_ operations: [RecordOperation]) {
        saving = []
        rules = []
        deleting = []
        deleteTags = []
        for operation in operations {
            switch operation {
            case .save(let record, let rule):
                saving.append(record)
                rules.append(rule)
            case .delete(let recordID, let tag):
                deleting.append(recordID)
                deleteTags.append(tag)
            }
        }
    }

    var count: Int { saving.count + deleting.count }
}

import StratusCloud

/// An entry of an answer's `records`: a record for ``RecordWriter`` to write, or a small tree
/// (a per-record error, a deletion, a share with its keys).
public enum RecordEntry {
    /// `encrypted`: the fields the schema declares `ENCRYPTED`; `extra`: members after the
    /// record's own (`deleted`, share keys, `changedKeys`).
    case record(Record, encrypted: Set<String>, extra: [(String, JSONValue)])
    case json(JSONValue)
}

import StratusCloud

/// Records per type in one zone of one database, as the record type picker shows them.
struct TypeCounts: Sendable, Equatable {
    var zone: ZoneID
    var scope: DatabaseScope
    var counts: [String: Int]
}

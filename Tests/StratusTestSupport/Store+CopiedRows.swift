import StratusEngine

extension Store {
    /// Every table's rows as a store copy reads them (``CopiedTable``), for tests that compare
    /// two stores table by table.
    package func copiedRows() throws -> [CopiedTable: [[CopiedValue]]] {
        try backend.read { db in
            var all: [CopiedTable: [[CopiedValue]]] = [:]
            for table in CopiedTable.allCases {
                try db.tables?.forEachRow(of: table) { all[table, default: []].append($0) }
            }
            return all
        }
    }
}

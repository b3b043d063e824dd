import Foundation
import StratusEngine
import StratusModel

/// A schema diff the Schema tab shows: from the file's schema to the store's.
struct SchemaDiffSnapshot: Hashable, Sendable {
    var path: String
    var changes: [SchemaDiff.Change]

    init(path: String, changes: [SchemaDiff.Change]) {
        self.path = path
        self.changes = changes
    }
}

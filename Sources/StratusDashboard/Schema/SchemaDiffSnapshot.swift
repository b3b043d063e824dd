import Foundation
import StratusEngine
import StratusModel

/// A schema diff the Schema tab shows: from the file's schema to the store's.
public struct SchemaDiffSnapshot: Hashable, Sendable {
    public var path: String
    public var changes: [SchemaDiff.Change]

    public init(path: String, changes: [SchemaDiff.Change]) {
        self.path = path
        self.changes = changes
    }
}

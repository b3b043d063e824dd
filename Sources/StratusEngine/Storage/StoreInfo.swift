import Foundation
import StratusCloud

/// The one `store_info` row: identity, format, environment and owner of a store.
package struct StoreInfo: Sendable {
    package var uuid: UUID
    package var formatVersion: Int
    package var environment: StoreEnvironment
    package var owner: String
    var schemaVersion: Int64

    /// Every stored property: a storage backend makes these from its rows.
    package init(uuid: UUID, formatVersion: Int, environment: StoreEnvironment, owner: String, schemaVersion: Int64) {
        self.uuid = uuid
        self.formatVersion = formatVersion
        self.environment = environment
        self.owner = owner
        self.schemaVersion = schemaVersion
    }
}

import GRDB

/// The migrations that add subscription and notification storage.
enum SubscriptionTables {
    static func register(in migrator: inout DatabaseMigrator) {
    }
}

import GRDB

/// The migrations that add roles and grants, as the CloudKit schema language declares them.
enum SchemaLanguageTables {
    static func register(in migrator: inout DatabaseMigrator) {
    }
}

import GRDB
import StratusCloud
import StratusEngine
import StratusModel

/// The migrations that add roles and grants, as the CloudKit schema language declares them.
enum SchemaLanguageTables {
    static func register(in migrator: inout DatabaseMigrator) {
        // schema_role: roles made with CREATE ROLE. schema_grant: a type's GRANT entries in order
        // (permissions as written, "READ, CREATE"). schema_field.declared_type: the spelling when
        // it says more than field_type (ENCRYPTED ..., NUMBER [PREFERRED AS ...]), else NULL.
        // record_type.retired: a type a schema import removed; the row stays so tombstones
        // keep their type's name and the id is never reused.
        migrator.registerMigration("v3-schema-language") { db in
            try db.execute(sql: """
                CREATE TABLE schema_role (
                    name TEXT PRIMARY KEY
                ) WITHOUT ROWID;
                CREATE TABLE schema_grant (
                    type_id INTEGER NOT NULL,
                    position INTEGER NOT NULL,
                    permissions TEXT NOT NULL,
                    role TEXT NOT NULL,
                    PRIMARY KEY (type_id, position)
                ) WITHOUT ROWID;
                ALTER TABLE schema_field ADD COLUMN declared_type TEXT;
                ALTER TABLE record_type ADD COLUMN retired INTEGER NOT NULL DEFAULT 0;
                """)
        }
    }
}

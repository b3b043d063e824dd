import Foundation
import StratusModel
import StratusCloud

extension Store {
    /// Makes the store's schema what `document` declares, as `cktool import-schema` does: record
    /// types, fields (with their declared ENCRYPTED / NUMBER spelling), indexes, the options of
    /// the system fields, roles and grants. Types the document does not declare are removed
    /// (`Users` stays as it is when the document omits it).
    ///
    /// Fields whose QUERYABLE / SORTABLE / SEARCHABLE options change get their index rows
    /// rebuilt for every record of the type, in the same transaction, so queries see the new
    /// indexes at once. `environment: .production` also makes the store a production store,
    /// where the schema decides what can be saved and queried.
    ///
    /// - Parameters:
    ///   - document: the schema to hold from now on.
    ///   - environment: `.production` makes the store a production store; nil keeps its environment.
    ///   - force: in a development store, delete the data the import would lose (records of
    ///     removed types, values of removed or retyped fields) instead of refusing.
    ///   - dryRun: work out the changes and check for losses without writing anything.
    /// - Throws: `invalidArguments` naming each loss (a removed type or field that holds
    ///   records, a field whose type changes while records hold it) when the import would lose
    ///   data and is not forced, or when the store is a production store; nothing is changed.
    @discardableResult
    public func importSchema(_ document: SchemaDocument, environment: StoreEnvironment? = nil, force: Bool = false,
                             dryRun: Bool = false) throws -> SchemaImportResult {
        try write { db in
            let importer = SchemaImporter(store: self, db: db, document: document, catalog: try catalog(db))
            return try importer.run(environment: environment, force: force, dryRun: dryRun)
        }
    }

    /// Parses `.ckdb` text and imports it (see ``importSchema(_:environment:force:dryRun:)``).
    ///
    /// - Throws: `invalidArguments` with the parser's line, column and expectation when the
    ///   text is not a valid schema.
    @discardableResult
    public func importSchema(text: String, environment: StoreEnvironment? = nil, force: Bool = false) throws -> SchemaImportResult {
        let document: SchemaDocument
        do {
            document = try SchemaDocument.parse(text)
        } catch {
            throw CloudKitError(.invalidArguments, error.message)
        }
        return try importSchema(document, environment: environment, force: force)
    }

    /// The store's schema as a document: every record type (sorted by name) with the six system
    /// fields and their options, the custom fields with their declared types and options, the
    /// grants; and the roles. `exportSchema().text` is what `cktool export-schema` would print.
    public func exportSchema() throws -> SchemaDocument {
        try read { db in try SchemaImporter.export(db, catalog: try catalog(db)) }
    }

    /// The schema of another store of this store's backend (a file, for SQLite), read without
    /// opening it as a store: nothing in it is written.
    func exportSchema(ofOtherStoreAt location: String) throws -> SchemaDocument {
        try backend.readWithoutOpening(location) { db in try Store.exportSchema(in: db) }
    }

    /// The schema as `db` holds it (``exportSchema()``, or another store's, read without
    /// opening it as a store).
    package static func exportSchema(in db: StoreTransaction) throws -> SchemaDocument {
        try SchemaImporter.export(db, catalog: try SchemaCatalog.load(db, version: try db.schema.schemaVersion()))
    }
}

import StratusCloud

/// Reading the schema; the Schema tab's export, diff, edits and import.
enum SchemaEffect: Sendable {
    case load(job: Int)
    case export(job: Int, path: String)
    /// Compares the `.ckdb` file at `path` with the store's schema.
    case diff(job: Int, path: String)
    /// One edit of the development schema, made as an import of the edited document.
    case change(job: Int, SchemaChange)
    /// Imports the `.ckdb` file at `path`, as `stratus schema import` does.
    case importFile(job: Int, path: String)
    /// Works out what importing the file at `path` would change, writing nothing: a production
    /// store asks before it deploys.
    case previewImport(job: Int, path: String)
}

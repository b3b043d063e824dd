import StratusCloud

/// Reading the schema, and the Schema tab's export and diff.
enum SchemaEffect: Sendable {
    case load(job: Int)
    case export(job: Int, path: String)
    /// Compares the `.ckdb` file at `path` with the store's schema.
    case diff(job: Int, path: String)
}

import StratusCloud

/// What a local store offers beyond CloudKit's API: the sync lab's fault plan, the request log
/// its servers write, and the file itself (to diff its schema with another store's).
public protocol LocalStoreFeatures: Sendable {
    /// Where the store lives.
    var path: String { get }
    /// The store could be opened only for reading (a read-only file or file system): every
    /// write fails, and the dashboard says so in its header before one is tried.
    var isReadOnly: Bool { get }
    func faults() throws -> [Fault]
    @discardableResult
    func addFault(_ fault: Fault) throws -> Fault
    /// Removes one fault (or every fault, `id` nil); returns how many went.
    @discardableResult
    func clearFaults(id: Int64?) throws -> Int
    /// The fault plan's firings after `id` (nil: the newest `limit`).
    func faultEvents(after id: Int64?, limit: Int) throws -> [FaultEvent]
    /// The requests servers logged after `id` (nil: the newest `limit`).
    func requestLog(after id: Int64?, limit: Int) throws -> [RequestLogEntry]
    /// The bodies kept for the logged request `id` (nil for an older one).
    func requestBodies(of id: Int64) throws -> RequestBodies?
    /// A watch that paces a live view of `topics` on this store: woken by other processes'
    /// commits where the backend announces them, polled every `polling` otherwise.
    func watch(_ topics: Set<StoreTopic>, polling: Duration) -> StoreWatch
    /// The schema of the store at `path`, read without opening it as a store.
    func exportSchema(ofStoreAt path: String) throws -> SchemaDocument
    /// Makes the store's schema `document`, as `stratus schema import` does (the one way a
    /// schema changes: the dashboard's edits are whole documents too). Data it would lose is
    /// refused, never deleted. `dryRun` works out the changes and the refusals and writes
    /// nothing: what a production store shows before it deploys.
    @discardableResult
    func importSchema(_ document: SchemaDocument, dryRun: Bool) throws -> SchemaImportResult
}

extension LocalStoreFeatures {
    /// Makes the store's schema `document` (see ``importSchema(_:dryRun:)``).
    @discardableResult
    public func importSchema(_ document: SchemaDocument) throws -> SchemaImportResult { try importSchema(document, dryRun: false) }
}

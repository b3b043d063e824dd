import Foundation

/// A read transaction that every read of one store on one thread shares while it lasts
/// (``Store/readingOneSnapshot(_:)``): a request that reads the store several times pays for
/// one transaction and sees one snapshot.
final class PinnedRead: @unchecked Sendable {
    /// The read in progress, bound for the body of ``Store/readingOneSnapshot(_:)``.
    @TaskLocal static var active: PinnedRead?

    private let store: ObjectIdentifier
    private let thread: pthread_t
    let transaction: StoreTransaction

    init(store: Store, transaction: StoreTransaction) {
        self.store = ObjectIdentifier(store)
        thread = pthread_self()
        self.transaction = transaction
    }

    /// The pinned transaction of `store`, when one is open on this thread. A task started
    /// inside the body inherits the binding but runs elsewhere, after the read may have ended:
    /// it reads on its own.
    static func transaction(of store: Store) -> StoreTransaction? {
        guard let pinned = active, pinned.store == ObjectIdentifier(store), pthread_equal(pinned.thread, pthread_self()) != 0 else { return nil }
        return pinned.transaction
    }
}

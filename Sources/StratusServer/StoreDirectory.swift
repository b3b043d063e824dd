import Foundation
import StratusCloud
import StratusEngine
import StratusStores

/// Which store answers a request for a container and environment.
public enum StoreSource: Sendable {
    /// One store file. Every container maps to it unless `container` names the one it serves;
    /// the path's environment must be the store's.
    case single(path: String, container: String?)
    /// A store this process has open already (the dashboard's, a test's): the server shares it
    /// rather than opening the file a second time.
    case opened(Store, container: String?)
    /// A folder with one store per container and environment (`DIR/<container>/<environment>.sqlite`),
    /// each made on first use.
    case folder(String)
}

/// Opens each store once and keeps it open for the server's life: a second connection pool on
/// the same file in one process would share (and, on closing, release) its POSIX locks.
public final class StoreDirectory: Sendable {
    let source: StoreSource
    private let opened = LockedValue<[String: Store]>([:])

    init(source: StoreSource) {
        self.source = source
    }

    /// The store for a request's container and environment.
    func store(container: String, environment: String) throws(CKWSFailure) -> Store {
        let store = try locate(container: container, environment: environment)
        try verify(store, container: container, environment: environment)
        return store
    }

    /// The store that would answer for the container and environment, opened but not yet
    /// asked which environment it is (``verify(_:container:environment:)`` asks, in the
    /// request's own read when it has one).
    func locate(container: String, environment: String) throws(CKWSFailure) -> Store {
        guard let wanted = StoreEnvironment(rawValue: environment) else {
            throw CKWSFailure.notFound("Unknown environment '\(environment)': use development or production")
        }
        switch source {
        case .single(let path, _):
            return try open(path, environment: nil)
        case .opened(let store, _):
            return store
        case .folder(let folder):
            guard StoreDirectory.isSafeName(container) else {
                throw CKWSFailure.badRequest("Container identifier '\(container)' cannot name a store (letters, digits, '.', '-' and '_' only)")
            }
            return try open(StoreDirectory.path(folder: folder, container: container, environment: environment), environment: wanted)
        }
    }

    /// Refuses a store from ``locate(container:environment:)`` that serves another container,
    /// or is now another environment (a schema import can move a store to production). A
    /// folder's stores are one per environment and need no check. Returns the store's types as
    /// the check read them (nil: no check read them), for the request to type its records with.
    @discardableResult
    func verify(_ store: Store, container: String, environment: String) throws(CKWSFailure) -> SchemaCatalog? {
        guard let wanted = StoreEnvironment(rawValue: environment) else {
            throw CKWSFailure.notFound("Unknown environment '\(environment)': use development or production")
        }
        switch source {
        case .single(_, let only), .opened(_, let only):
            return try check(store, container: container, only: only, wanted: wanted, environment: environment)
        case .folder:
            return nil
        }
    }

    /// Whether the one store of `.single` and `.opened` serves this container and environment;
    /// the types the check read.
    private func check(_ store: Store, container: String, only: String?, wanted: StoreEnvironment, environment: String) throws(CKWSFailure) -> SchemaCatalog? {
        if let only, only != container {
            throw CKWSFailure.notFound("This server serves container \(only), not \(container)")
        }
        let catalog = try? store.currentCatalog()
        let actual = catalog?.environment ?? .development
        guard actual == wanted else {
            throw CKWSFailure.notFound("This server's store is the \(actual.rawValue) environment of \(container), not \(environment)")
        }
        return catalog
    }

    /// Whether every store this server answers from can be read now (one cheap read each):
    /// the one store of `.single` and `.opened`, or a folder's (or database's) stores opened
    /// so far, once the folder or database itself can be reached.
    func canReadStores() -> Bool {
        let stores: [Store]
        switch source {
        case .single(let path, _):
            guard let store = try? open(path, environment: nil) else { return false }
            stores = [store]
        case .opened(let store, _):
            stores = [store]
        case .folder(let folder):
            guard StoreOpener.canReach(folder) else { return false }
            stores = opened.withLock { Array($0.values) }
        }
        return stores.allSatisfy { (try? $0.environment) != nil }
    }

    /// Every store opened so far, for a clean shutdown.
    func closeAll() {
        opened.withLock { $0.removeAll() }
    }

    private func open(_ path: String, environment: StoreEnvironment?) throws(CKWSFailure) -> Store {
        do {
            return try opened.withLock { stores in
                if let store = stores[path] { return store }
                let store = try StoreOpener.open(path, ifMissing: .create, creatingWith: environment)
                stores[path] = store
                return store
            }
        } catch let error as CloudKitError {
            throw CKWSFailure(status: 500, serverErrorCode: "INTERNAL_ERROR", reason: error.message)
        } catch {
            throw CKWSFailure(status: 500, serverErrorCode: "INTERNAL_ERROR", reason: "\(error)")
        }
    }

    /// Where `--stores DIR` keeps a container's store for an environment.
    public static func path(folder: String, container: String, environment: String) -> String {
        StoreOpener.location(in: folder, container: container, environment: environment)
    }

    public static func isSafeName(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && name.utf8.count <= 200
            && name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || ".-_".unicodeScalars.contains($0) }
    }
}

import Foundation

/// A fresh folder under the system's temporary directory, removed with everything in it when
/// the value goes away (or at ``remove()``).
///
/// Every test target made its own (a store's folder, a file to import, theme files, a mount
/// point); this is the one they share. Permissions are given back before the removal, so a
/// test that made a file or folder read-only does not leave it behind.
public final class TemporaryDirectory: Sendable {
    /// The folder.
    public let url: URL

    /// Makes `TMPDIR/LABEL-UUID`.
    public init(_ label: String = "stratus-test") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The folder's path.
    public var path: String { url.path }

    /// Where a store in this folder goes: `store.sqlite`.
    public var storePath: String { path("store.sqlite") }

    /// The URL of `name` in the folder (nothing is made).
    public func url(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// The path of `name` in the folder (nothing is made).
    public func path(_ name: String) -> String { url(name).path }

    /// Writes `contents` to `name` in the folder and returns its URL.
    @discardableResult
    public func write(_ contents: Data, to name: String) throws -> URL {
        let file = url(name)
        try contents.write(to: file)
        return file
    }

    /// Removes the folder now; it is removed at the end anyway.
    public func remove() {
        // A read-only folder or file would stop the removal: give permissions back first.
        if let items = FileManager.default.enumerator(atPath: url.path) {
            for case let item as String in items { chmod(url.appendingPathComponent(item).path, 0o755) }
        }
        chmod(url.path, 0o755)
        try? FileManager.default.removeItem(at: url)
    }

    deinit { remove() }
}

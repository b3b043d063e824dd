import Foundation
import StratusCloud
import StratusEngine
import StratusModel

/// Why an existing store cannot be written here, and how SQLite can still read it.
///
/// A store in WAL mode is read through a `-shm` file beside it. When the folder is read-only
/// too, SQLite can neither make that file nor (without it) open the store, unless it is told
/// the file is immutable. That is only safe when the `-wal` file holds nothing: otherwise the
/// changes in it would silently be missing from what the user reads.
struct ReadOnlyStore: Sendable {
    /// Why the store is read-only, as a clause for messages ("the file is not writable").
    let reason: String
    /// The store's file.
    let path: String

    /// Nil when the store does not exist yet or can be written (file and folder).
    init?(path: String) {
        let files = FileManager.default
        guard files.fileExists(atPath: path) else { return nil }
        self.path = path
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var volume = statvfs()
        if statvfs(path, &volume) == 0, volume.f_flag & UInt(ST_RDONLY) != 0 {
            reason = "it is on a read-only file system"
        } else if !files.isWritableFile(atPath: path) {
            reason = "the file is not writable"
        } else if !files.isWritableFile(atPath: folder), !files.fileExists(atPath: path + "-wal") {
            // SQLite writes a store through a -wal file beside it, which it cannot make here.
            reason = "its folder \(folder) is not writable"
        } else {
            return nil
        }
    }

    /// True when the `-wal` file holds changes not yet folded into the store file.
    var walHasChanges: Bool {
        let size = (try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int
        return (size ?? 0) > 0
    }

    /// The store as an SQLite URI that opens it immutable: no locks, no `-shm` file. Stratus
    /// reads it as it is now; a change another process makes meanwhile is not seen.
    var immutableURI: String {
        var components = URLComponents()
        components.scheme = "file"
        components.path = URL(fileURLWithPath: path).standardizedFileURL.path
        components.percentEncodedQuery = "mode=ro&immutable=1"
        return components.string ?? "file:\(path)?mode=ro&immutable=1"
    }

    /// Why the store cannot be read here: opened immutable, it would be read without the
    /// changes still in its `-wal` file.
    var unreadChangesRefusal: CloudKitError {
        let name = URL(fileURLWithPath: path).lastPathComponent
        return CloudKitError(.permissionFailure, "The store at \(path) is read-only (\(reason)), and its latest changes are still in \(name)-wal, which SQLite reads only through a \(name)-shm file it cannot make there. Open the store once where it is writable (that folds the changes in), or read a copy of the folder.")
    }

    /// Why a write was refused.
    var writeRefusal: CloudKitError {
        CloudKitError(.permissionFailure, "The store at \(path) is read-only (\(reason)): it was opened for reading, and nothing was written. Copy it somewhere writable, or make it writable, to change it.")
    }
}

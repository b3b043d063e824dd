import Foundation
import StratusCKWS
import StratusCloud

/// A small JSON file replaced whole: written to a new file, flushed, then renamed over the old
/// one, so a reader (or the next process, after a kill) sees the old content or the new, never
/// half of either. The remotes, their credentials and a pull's tokens are kept so.
public enum JSONFile {
    /// Writes `json` (pretty, with a final newline) to `path` with permissions `mode`.
    public static func replace(_ path: String, with json: JSONValue, mode: mode_t) throws {
        let temporary = path + ".\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, mode)
        guard descriptor >= 0 else { throw CloudKitError(.internalError, "cannot write \(temporary): \(String(cString: strerror(errno)))") }
        let bytes = JSONWriter.bytes(json, pretty: true) + [0x0A]
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let flushed = fsync(descriptor) == 0
        close(descriptor)
        guard written == bytes.count, flushed, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw CloudKitError(.internalError, "cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }
}

import StratusCloud

/// New records' index rows held back during a bulk write and written sorted when flushed
/// (before a commit, or before a held record is replaced): a backend's own buffer, which the
/// engine only holds, hands to ``RecordStorage`` writes and flushes.
package protocol IndexRowBuffering: AnyObject {
    /// Writes every row held back.
    func flush() throws
}

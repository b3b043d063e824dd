/// An asset as a record holds it: the store keeps the bytes by checksum, the record only
/// points at them, so a large file is stored once however many records share it.
public struct Asset: Hashable, Sendable {
    /// Lower-case hex SHA-256 of the content.
    public var fileChecksum: String
    /// Size of the content in bytes.
    public var size: Int64

    public init(fileChecksum: String, size: Int64) {
        self.fileChecksum = fileChecksum
        self.size = size
    }
}

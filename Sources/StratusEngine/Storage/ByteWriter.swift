import StratusCloud

/// Appends varints, fixed-width integers and strings to a byte buffer.
package struct ByteWriter {
    package var bytes: [UInt8] = []

    package init() {}

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func varint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// Zig-zag, so small negative numbers stay short.
    mutating func signed(_ value: Int64) {
        varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    package mutating func fixed64(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func string(_ text: String) {
        // As one buffer: appending the UTF-8 view went byte by byte.
        var text = text
        text.withUTF8 { string(utf8: $0) }
    }

    /// ``string(_:)`` of bytes that are UTF-8 already.
    package mutating func string(utf8: UnsafeBufferPointer<UInt8>) {
        varint(UInt64(utf8.count))
        bytes.append(contentsOf: utf8)
    }
}

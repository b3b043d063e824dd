import Foundation
import StratusModel
import StratusCloud

/// The member names and type tags of the CKWS record shape: a record line repeats dozens of
/// them, and finding one among these costs less than making a string of its bytes.
extension JSONParser {
    /// The words (a word's place here is its number).
    static let knownWords: [String] = {
        let words = ["value", "type", "fields", "recordName", "recordType", "recordChangeTag", "zoneID", "zoneName",
                     "ownerRecordName", "zoneType", "created", "modified", "timestamp", "userRecordName", "deleted", "parent",
                     "latitude", "longitude", "action", "fileChecksum", "size", "downloadURL", "NONE", "DELETE_SELF",
                     "__defaultOwner__", "_defaultZone", "DEFAULT_ZONE", "REGULAR_CUSTOM_ZONE",
                     "changedKeys", "shortGUID", "records", "zones", "continuationMarker", "syncToken", "moreComing"]
            + FieldType.BaseType.allCases.flatMap { [FieldType($0).webServicesTag, FieldType.list($0).webServicesTag] }
        return Set(words).sorted { ($0.utf8.count, $0) < ($1.utf8.count, $1) }
    }()

    /// The number of `word` among ``knownWords``, for tables made once.
    static func knownWordNumber(_ word: String) -> Int? { knownWords.firstIndex(of: word) }

    /// The word `number` names.
    static func knownText(_ number: Int) -> String { KnownWordTable.shared.texts[number] }

    /// The number of the known word whose bytes `bytes[range]` are, if any. Inlined: a
    /// record line looks up dozens of member names.
    @inline(__always)
    static func knownWord(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        let table = KnownWordTable.shared
        guard range.count < KnownWordTable.stride else { return nil }
        let candidate = UnsafeBufferPointer(rebasing: bytes[range])
        let (head, tail) = KnownWordTable.pack(candidate, readable: bytes.count - range.lowerBound)
        var slot = KnownWordTable.slot(head: head, tail: tail)
        while true {
            let entry = table.slots[slot]
            guard entry != 0 else { return nil }
            let number = entry - 1
            if table.packed[2 * number] == head, table.packed[2 * number + 1] == tail, table.lengths[number] == range.count {
                if candidate.count <= 16 { return number }
                let rest = table.bytes.baseAddress! + number * KnownWordTable.stride + 16
                if memcmp(rest, candidate.baseAddress! + 16, candidate.count - 16) == 0 { return number }
            }
            slot = (slot + 1) & (KnownWordTable.slotCount - 1)
        }
    }
}

/// ``JSONParser/knownWords`` laid out for look-ups: each word's first sixteen bytes packed
/// into two numbers, so telling a word from other bytes takes two comparisons, not a `memcmp`
/// call; its bytes and length; and a hash table of the words by their packed bytes. In memory
/// allocated once and never freed, which a look-up reads without retaining anything (arrays of
/// the words were retained and released, and searched by length, at each of an import's
/// million strings: most of a look-up's cost).
struct KnownWordTable: @unchecked Sendable {
    /// Bytes kept per word (every word is shorter).
    static let stride = 32
    /// Slots of the hash table: a power of two, at least twice the words.
    static let slotCount = 256

    let packed: UnsafeBufferPointer<UInt64>
    let bytes: UnsafeBufferPointer<UInt8>
    let lengths: UnsafeBufferPointer<Int>
    let texts: UnsafeBufferPointer<String>
    /// Each slot: 0 when empty, else one more than the number of the word there (a word sits
    /// at the first free slot from ``slot(head:tail:)`` on).
    let slots: UnsafeBufferPointer<Int>

    static let shared = KnownWordTable(JSONParser.knownWords)

    private init(_ words: [String]) {
        precondition(2 * words.count <= Self.slotCount, "too many known words for the table")
        let packed = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: 2 * words.count)
        let bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: Self.stride * words.count)
        bytes.initialize(repeating: 0)
        let lengths = UnsafeMutableBufferPointer<Int>.allocate(capacity: words.count)
        let slots = UnsafeMutableBufferPointer<Int>.allocate(capacity: Self.slotCount)
        slots.initialize(repeating: 0)
        for (number, word) in words.enumerated() {
            let utf8 = Array(word.utf8)
            precondition(utf8.count < Self.stride, "a known word is longer than the table keeps")
            for (offset, byte) in utf8.enumerated() { bytes[number * Self.stride + offset] = byte }
            lengths[number] = utf8.count
            let (head, tail) = utf8.withUnsafeBufferPointer { Self.pack($0) }
            (packed[2 * number], packed[2 * number + 1]) = (head, tail)
            var slot = Self.slot(head: head, tail: tail)
            while slots[slot] != 0 { slot = (slot + 1) & (Self.slotCount - 1) }
            slots[slot] = number + 1
        }
        let texts = UnsafeMutableBufferPointer<String>.allocate(capacity: words.count)
        _ = texts.initialize(from: words)
        (self.packed, self.bytes, self.lengths, self.texts, self.slots) = (UnsafeBufferPointer(packed), UnsafeBufferPointer(bytes),
                                                                           UnsafeBufferPointer(lengths), UnsafeBufferPointer(texts),
                                                                           UnsafeBufferPointer(slots))
    }

    /// Where the search for the word of these packed bytes starts.
    static func slot(head: UInt64, tail: UInt64) -> Int {
        Int(truncatingIfNeeded: ((head ^ (tail &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9) >> 56) & (slotCount - 1)
    }

    /// The first eight bytes and the next eight, zero-padded. `readable`: how many bytes from
    /// the start may be read (at least sixteen: two loads, masked to the length).
    @inline(__always)
    static func pack(_ bytes: UnsafeBufferPointer<UInt8>, readable: Int = 0) -> (UInt64, UInt64) {
        func mask(_ count: Int) -> UInt64 { count >= 8 ? .max : (1 << (8 * UInt64(max(count, 0)))) - 1 }
        if readable >= 16, let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            let head = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self)) & mask(bytes.count)
            let tail = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) & mask(bytes.count - 8)
            return (head, tail)
        }
        var head: UInt64 = 0, tail: UInt64 = 0
        for index in 0..<min(bytes.count, 16) {
            if index < 8 { head |= UInt64(bytes[index]) << (8 * index) } else { tail |= UInt64(bytes[index]) << (8 * (index - 8)) }
        }
        return (head, tail)
    }
}

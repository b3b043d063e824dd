import Foundation
import StratusCloud

/// The printable, self-checking envelope shared by change tokens and query cursors:
/// base64url of `version | kind | store UUID | payload | FNV-1a checksum`.
///
/// Decoding checks every part, so a damaged string, or one made by another store, is refused
/// with a reason instead of being read as a position.
struct OpaqueToken {
    enum Kind: UInt8 {
        case zoneChanges = 1
        case databaseChanges = 2
        case queryCursor = 3

        var noun: String {
            switch self {
            case .zoneChanges: return "a zone change token"
            case .databaseChanges: return "a database change token"
            case .queryCursor: return "a query cursor"
            }
        }
    }

    static let version: UInt8 = 1

    var kind: Kind
    var storeID: UUID
    var payload: [UInt8]

    func encoded() -> String {
        var bytes: [UInt8] = [OpaqueToken.version, kind.rawValue]
        withUnsafeBytes(of: storeID.uuid) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: payload)
        let sum = OpaqueToken.checksum(bytes)
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8((sum >> UInt32(shift)) & 0xFF)) }
        // base64url, byte by byte: a cursor carrying a lookahead is kilobytes long, and
        // replacing characters in a `String` cost more than the rest of its page.
        var text: [UInt8] = []
        let base64 = Data(bytes).base64EncodedData()
        text.reserveCapacity(base64.count)
        for byte in base64 {
            switch byte {
            case UInt8(ascii: "+"): text.append(UInt8(ascii: "-"))
            case UInt8(ascii: "/"): text.append(UInt8(ascii: "_"))
            case UInt8(ascii: "="): continue
            default: text.append(byte)
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Decodes and checks a token of the expected kind made by the store `storeID`.
    static func decode(_ text: String, expecting kind: Kind, storeID: UUID) throws -> OpaqueToken {
        func damaged(_ why: String) -> CloudKitError {
            CloudKitError(.invalidArguments, "The string given as \(kind.noun) is damaged (\(why)); pass a token exactly as it was returned, or none to start from the beginning.")
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        var base64: [UInt8] = []
        base64.reserveCapacity(trimmed.utf8.count + 3)
        for byte in trimmed.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): base64.append(byte)
            case UInt8(ascii: "-"): base64.append(UInt8(ascii: "+"))
            case UInt8(ascii: "_"): base64.append(UInt8(ascii: "/"))
            default: throw damaged("it is not base64url text")
            }
        }
        guard !base64.isEmpty else { throw damaged("it is not base64url text") }
        while base64.count % 4 != 0 { base64.append(UInt8(ascii: "=")) }
        guard let data = Data(base64Encoded: Data(base64)) else { throw damaged("it is not base64url text") }
        let bytes = [UInt8](data)
        guard bytes.count >= 22 else { throw damaged("it is too short") }
        let body = Array(bytes[..<(bytes.count - 4)])
        let stored = bytes[(bytes.count - 4)...].reduce(UInt32(0)) { ($0 << 8) | UInt32($1) }
        guard checksum(body) == stored else { throw damaged("its checksum does not match") }
        guard body[0] == version else {
            throw CloudKitError(.incompatibleVersion, "This is \(kind.noun) made by a different version of the server (format \(body[0])); fetch again without it.")
        }
        guard let actualKind = Kind(rawValue: body[1]) else { throw damaged("unknown kind \(body[1])") }
        guard actualKind == kind else {
            throw CloudKitError(.invalidArguments, "This is \(actualKind.noun), not \(kind.noun); zone and database tokens are not interchangeable.")
        }
        let uuid = UUID(uuid: body[2..<18].withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) })
        guard uuid == storeID else {
            throw CloudKitError(.invalidArguments, "This is \(kind.noun) of another store (\(uuid.uuidString)); tokens and cursors only work with the store that made them.")
        }
        return OpaqueToken(kind: actualKind, storeID: uuid, payload: Array(body[18...]))
    }

    /// FNV-1a, 32 bits: enough to catch damage, not meant to resist forgery.
    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var hash: UInt32 = 0x811C_9DC5
        for byte in bytes {
            hash ^= UInt32(byte)
            hash = hash &* 0x0100_0193
        }
        return hash
    }
}

import Foundation
import StratusCloud

/// Short GUIDs for share URLs: 25 URL-safe characters, as CloudKit's.
///
/// Made from the store, zone and root, so sharing the same root (or zone) again gives the same
/// URL, as CloudKit keeps a root's URL across re-shares.
enum ShareGUID {
    private static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_-")

    static func make(storeID: UUID, zoneRowID: Int64, root: String?) -> String {
        let digest = SHA256.hexDigest(Data("\(storeID.uuidString)\u{0}\(zoneRowID)\u{0}\(root ?? "\u{1}zone")".utf8))
        let bytes = stride(from: 0, to: 50, by: 2).map { offset -> UInt8 in
            let start = digest.index(digest.startIndex, offsetBy: offset)
            return UInt8(digest[start..<digest.index(start, offsetBy: 2)], radix: 16) ?? 0
        }
        return String(bytes.map { alphabet[Int($0) % alphabet.count] })
    }
}

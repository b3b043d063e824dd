import Crypto
import Foundation
import StratusCloud

/// Signs requests with a server-to-server key as CloudKit checks them: ECDSA P-256 over
/// `DATE:BASE64(SHA256(BODY)):SUBPATH` (the path without its query string, as Apple's examples
/// sign), DER, base64, in `X-Apple-CloudKit-Request-SignatureV1`, with the key ID and the date
/// (ISO 8601, no milliseconds) beside it.
struct ServerKeySigner {
    let keyID: String
    private let key: P256.Signing.PrivateKey

    /// Reads the private key (PEM, as `openssl ecparam -name prime256v1 -genkey` writes it, or
    /// PKCS#8); a key that is not P-256 is refused by name, never half-used.
    init(keyID: String, privateKeyPEM: String) throws {
        self.keyID = keyID
        do {
            key = try P256.Signing.PrivateKey(pemRepresentation: privateKeyPEM)
        } catch {
            throw CloudKitError(.invalidArguments, "the private key is not a P-256 (prime256v1) key in PEM form")
        }
    }

    /// Whether `pem` is a P-256 private key a signer can use.
    static func isPrivateKey(_ pem: String) -> Bool {
        (try? P256.Signing.PrivateKey(pemRepresentation: pem)) != nil
    }

    /// The three headers of a request to `path` carrying `body`, signed at `date`.
    func headers(path: String, body: [UInt8], date: Date = Date()) throws -> [(String, String)] {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        let stamp = formatter.string(from: date)
        let hash = Data(SHA256.hash(data: body)).base64EncodedString()
        let signature = try key.signature(for: Data("\(stamp):\(hash):\(path)".utf8))
        return [("X-Apple-CloudKit-Request-KeyID", keyID), ("X-Apple-CloudKit-Request-ISO8601Date", stamp),
                ("X-Apple-CloudKit-Request-SignatureV1", signature.derRepresentation.base64EncodedString())]
    }
}

extension RemoteCredentials {
    /// Whether `pem` is a P-256 private key, as a server-to-server key must be.
    public static func isP256PrivateKey(_ pem: String) -> Bool { ServerKeySigner.isPrivateKey(pem) }
}

import Crypto
import Foundation
import StratusEngine
import StratusCKWS

/// Checks a server-to-server request as CloudKit does: the key ID names a registered P-256
/// public key, and `X-Apple-CloudKit-Request-SignatureV1` is its ECDSA SHA-256 signature over
/// `DATE:BASE64(SHA256(BODY)):PATH`, with a date no more than ten minutes off.
///
/// Clients differ in small ways, all accepted: a DER or a raw r‖s signature, for an empty
/// body the hash of nothing or an empty hash, and a path with its query string (CloudKit JS)
/// or without it (MistKit, the reference's examples).
struct ServerToServerSignature {
    static let allowedSkew: TimeInterval = 10 * 60

    let keyID: String
    let date: String
    let signature: String

    /// The user the key acts as.
    func verify(body: Data, paths: [String], container: String, store: Store, now: Date = Date()) throws(CKWSFailure) -> String {
        let key: (publicKeyPEM: String, user: String)?
        do {
            key = try store.serverKey(keyID, container: container)
        } catch {
            throw CKWSFailure(status: 500, serverErrorCode: "INTERNAL_ERROR", reason: "\(error)")
        }
        guard let key else { throw CKWSFailure.authenticationFailed("Unknown server-to-server key ID for container \(container)") }
        guard let signed = ISO8601.parse(date) else {
            throw CKWSFailure.authenticationFailed("X-Apple-CloudKit-Request-ISO8601Date is not an ISO 8601 date: '\(date)'")
        }
        guard abs(signed.timeIntervalSince(now)) <= Self.allowedSkew else {
            throw CKWSFailure.authenticationFailed("The request was signed at \(date), more than ten minutes from the server's clock")
        }
        guard let publicKey = try? P256.Signing.PublicKey(pemRepresentation: key.publicKeyPEM) else {
            throw CKWSFailure(status: 500, serverErrorCode: "INTERNAL_ERROR", reason: "The registered public key of \(keyID) cannot be read")
        }
        guard let bytes = Data(base64Encoded: signature) else {
            throw CKWSFailure.authenticationFailed("X-Apple-CloudKit-Request-SignatureV1 is not base64")
        }
        let signatures = [try? P256.Signing.ECDSASignature(derRepresentation: bytes),
                          bytes.count == 64 ? try? P256.Signing.ECDSASignature(rawRepresentation: bytes) : nil].compactMap { $0 }
        var hashes = [Data(SHA256.hash(data: body)).base64EncodedString()]
        if body.isEmpty { hashes.append("") }
        for hash in hashes {
            for path in Set(paths) {
                let message = Data("\(date):\(hash):\(path)".utf8)
                if signatures.contains(where: { publicKey.isValidSignature($0, for: message) }) { return key.user }
            }
        }
        throw CKWSFailure.authenticationFailed("The request's signature does not match key \(keyID)")
    }

    /// Reads a registered key, as `stratus auth key add` checks it before storing it.
    static func isPublicKey(_ pem: String) -> Bool {
        (try? P256.Signing.PublicKey(pemRepresentation: pem)) != nil
    }
}

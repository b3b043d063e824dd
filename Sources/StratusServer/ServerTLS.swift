import Foundation
import HummingbirdTLS
import NIOSSL

/// The certificate and key `stratus serve` answers HTTPS with, read and checked before the
/// server listens: a file that is missing, unreadable, not PEM, or a key that does not belong
/// to the certificate is said by name, rather than as a TLS failure of the first client.
public struct ServerTLS: Sendable {
    let configuration: TLSConfiguration

    /// Reads the certificate chain (PEM, the server's certificate first) and its private key (PEM).
    public init(certificateFile: String, keyFile: String) throws(ServerTLSProblem) {
        let certificateBytes = try Self.contents(of: certificateFile, what: "certificate")
        let keyBytes = try Self.contents(of: keyFile, what: "key")
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMBytes(certificateBytes)
        } catch {
            throw ServerTLSProblem("the TLS certificate \(certificateFile) is not a PEM certificate (-----BEGIN CERTIFICATE-----)")
        }
        guard !chain.isEmpty else {
            throw ServerTLSProblem("the TLS certificate \(certificateFile) holds no certificate (-----BEGIN CERTIFICATE-----)")
        }
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(bytes: keyBytes, format: .pem)
        } catch {
            throw ServerTLSProblem("the TLS key \(keyFile) is not a PEM private key (-----BEGIN PRIVATE KEY-----), or it is encrypted")
        }
        let configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) },
                                                                     privateKey: .privateKey(key))
        // The context checks that the key is the certificate's, as each connection would.
        do {
            _ = try NIOSSLContext(configuration: configuration)
        } catch {
            throw ServerTLSProblem("the TLS key \(keyFile) does not belong to the certificate \(certificateFile)")
        }
        self.configuration = configuration
    }

    private static func contents(of path: String, what: String) throws(ServerTLSProblem) -> [UInt8] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw ServerTLSProblem("the TLS \(what) \(path) does not exist")
        }
        guard !isFolder.boolValue else { throw ServerTLSProblem("the TLS \(what) \(path) is a folder, not a PEM file") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ServerTLSProblem("the TLS \(what) \(path) cannot be read (check its permissions)")
        }
        return Array(data)
    }
}

/// Why the TLS certificate or key cannot be used, naming the file.
public struct ServerTLSProblem: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) { self.description = description }
}

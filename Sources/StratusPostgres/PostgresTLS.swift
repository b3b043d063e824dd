import Foundation
import NIOSSL
import PostgresNIO
import StratusCloud

/// How a connection to PostgreSQL uses TLS, named and defaulted as libpq's `sslmode` is, so a
/// URL a team already uses with `psql` means the same here: `prefer` (the default) encrypts
/// when the server offers TLS, `require` refuses a server without it, `verify-ca` also checks the
/// server's certificate against `sslrootcert` (or the system's roots), and `verify-full` checks
/// the host name too. `disable` never encrypts.
package struct PostgresTLS: Sendable, Equatable {
    package enum Mode: String, Sendable, CaseIterable {
        case disable, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    package var mode: Mode
    /// A PEM file of the certificate authorities to trust (`sslrootcert`); nil: the system's.
    package var rootCertificate: String?

    package init(mode: Mode = .prefer, rootCertificate: String? = nil) {
        self.mode = mode
        self.rootCertificate = rootCertificate
    }

    /// The default, which a URL without `sslmode` means.
    package static let standard = PostgresTLS()

    /// postgres-nio's setting for this mode; a context is made once per mode and root file.
    func connectionSetting() throws -> PostgresConnection.Configuration.TLS {
        switch mode {
        case .disable: return .disable
        case .prefer: return .prefer(try Self.contexts.context(for: self))
        default: return .require(try Self.contexts.context(for: self))
        }
    }

    /// The TLS configuration the mode asks for.
    func makeContext() throws -> NIOSSLContext {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch mode {
        // As libpq: prefer and require encrypt without checking who answers.
        case .disable, .prefer, .require: configuration.certificateVerification = .none
        case .verifyCA: configuration.certificateVerification = .noHostnameVerification
        case .verifyFull: configuration.certificateVerification = .fullVerification
        }
        if let rootCertificate {
            guard FileManager.default.isReadableFile(atPath: rootCertificate) else {
                throw CloudKitError(.badDatabase, "sslrootcert \(rootCertificate) cannot be read: give the path of a PEM file of the certificate authorities to trust.")
            }
            configuration.trustRoots = .file(rootCertificate)
        }
        do {
            return try NIOSSLContext(configuration: configuration)
        } catch {
            throw CloudKitError(.badDatabase, "sslrootcert \(rootCertificate ?? "(the system's)") is not usable for TLS: \(error).")
        }
    }

    private static let contexts = ContextCache()

    /// One TLS context per setting, made on first use: loading roots costs more than a connection.
    private final class ContextCache: @unchecked Sendable {
        private let lock = NSLock()
        private var contexts: [String: NIOSSLContext] = [:]

        func context(for tls: PostgresTLS) throws -> NIOSSLContext {
            let key = tls.mode.rawValue + "\u{0}" + (tls.rootCertificate ?? "")
            lock.lock()
            defer { lock.unlock() }
            if let context = contexts[key] { return context }
            let context = try tls.makeContext()
            contexts[key] = context
            return context
        }
    }
}

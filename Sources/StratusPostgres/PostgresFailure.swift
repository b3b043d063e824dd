import Foundation
import NIOSSL
import PostgresNIO
import StratusCloud

/// PostgreSQL's errors in CloudKit's words, and the ones a writer retries: a serialization
/// failure (40001), a deadlock (40P01) and a unique key another writer took first (23505,
/// which a retry then reads as the row it is).
package struct PostgresFailure: Error, CustomStringConvertible {
    package let sqlState: String?
    package let message: String

    package var description: String { message }

    /// Whether running the whole transaction again can succeed.
    var isRetryable: Bool { ["40001", "40P01", "23505"].contains(sqlState ?? "") }

    static func unreachable(_ location: PostgresLocation, _ error: any Error) -> CloudKitError {
        CloudKitError(.serviceUnavailable, "Could not connect to the PostgreSQL store \(location.masked): \(tlsReason(of: error, location) ?? reason(of: error)).")
    }

    /// Why TLS failed, in the URL's own terms (`sslmode`, `sslrootcert`); nil for another failure.
    static func tlsReason(of error: any Error, _ location: PostgresLocation) -> String? {
        let underlying = (error as? PSQLError)?.underlying ?? error
        if let psql = error as? PSQLError, psql.code == .sslUnsupported {
            return "the server does not offer TLS, which sslmode=\(location.tls.mode.rawValue) requires (sslmode=prefer falls back to an unencrypted connection)"
        }
        if let extra = underlying as? NIOSSLExtraError, extra == .failedToValidateHostname {
            return "the server's TLS certificate is not for \(location.host) (sslmode=verify-full checks the host name; connect by a name the certificate lists)"
        }
        // BoringSSL names a failed check of the certificate's signer in its error's text.
        if underlying is NIOSSLError, "\(underlying)".contains("CERTIFICATE_VERIFY_FAILED") {
            let trusted = location.tls.rootCertificate.map { "the authorities in \($0)" } ?? "the system's authorities"
            return "the server's TLS certificate is not signed by \(trusted) (sslmode=\(location.tls.mode.rawValue)); "
                + "give sslrootcert=PEM, the certificate of the authority that signed it, or sslmode=require to encrypt without checking it"
        }
        if underlying is NIOSSLError { return "the TLS handshake failed (\(underlying))" }
        return nil
    }

    static func wrap(_ error: any Error, location: PostgresLocation) -> any Error {
        if error is PostgresFailure || error is CloudKitError { return error }
        if let psql = error as? PSQLError {
            if let state = psql.serverInfo?[.sqlState] {
                return PostgresFailure(sqlState: state, message: "PostgreSQL (\(location.masked)) answered \(state): \(psql.serverInfo?[.message] ?? "an error")")
            }
            return CloudKitError(.serviceUnavailable, "The PostgreSQL store \(location.masked) could not be reached: \(reason(of: error)).")
        }
        return error
    }

    /// What went wrong, in a line (postgres-nio's own description can be long).
    static func reason(of error: any Error) -> String {
        if let psql = error as? PSQLError {
            if let message = psql.serverInfo?[.message] { return message }
            if let underlying = psql.underlying { return "\(underlying)" }
            return "\(psql.code)"
        }
        return "\(error)"
    }

    /// This failure as the engine's error, once retries are spent or for one not retried.
    var cloudKitError: CloudKitError {
        switch sqlState {
        case "23505", "23503", "23514": CloudKitError(.constraintViolation, message)
        case "40001", "40P01", "55P03": CloudKitError(.zoneBusy, message)
        case "3F000", "42P01": CloudKitError(.badDatabase, message)
        default: CloudKitError(.internalError, message)
        }
    }
}

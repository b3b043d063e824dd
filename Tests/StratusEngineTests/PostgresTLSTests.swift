import Foundation
import StratusCloud
import StratusEngine
import StratusPostgres
import StratusStores
import StratusTestSupport
import Testing

/// TLS to PostgreSQL, with libpq's `sslmode` and `sslrootcert` in the store's URL: the test
/// server offers TLS with a certificate for localhost and 127.0.0.1 signed by a throwaway
/// authority (`scripts/postgres start`), and says itself whether each connection is encrypted.
@Suite struct PostgresTLSTests {
    /// The test server's URL with a fresh schema, on `host`, with `options` appended.
    func url(host: String = "127.0.0.1", _ options: String) throws -> String {
        let base = try TestPostgres.freshStoreURL().replacingOccurrences(of: "@127.0.0.1:", with: "@\(host):")
        return options.isEmpty ? base : base + "&" + options
    }

    @Test func theModesParseAsLibpqNamesThemAndAnUnknownOneIsRefusedByName() throws {
        let plain = try PostgresLocation(url: "postgres://ann@db.example/app")
        #expect(plain.tls == PostgresTLS(mode: .prefer), "libpq's default")
        let full = try PostgresLocation(url: "postgres://ann:pw@db.example/app?sslmode=verify-full&sslrootcert=/etc/ssl/team-ca.pem")
        #expect(full.tls == PostgresTLS(mode: .verifyFull, rootCertificate: "/etc/ssl/team-ca.pem"))
        #expect(full.masked == "postgres://ann:***@db.example:5432/app?schema=stratus&sslmode=verify-full&sslrootcert=/etc/ssl/team-ca.pem")
        #expect(try PostgresLocation(url: full.url) == full, "the URL handed to another process means the same")
        #expect(try PostgresLocation(url: plain.url) == plain)

        let bad = #expect(throws: CloudKitError.self) { try PostgresLocation(url: "postgres://ann:pw@db.example/app?sslmode=required") }
        #expect(bad?.message.contains("sslmode 'required' is not one of disable, prefer, require, verify-ca, verify-full") == true, "\(bad?.message ?? "")")
        #expect(bad?.message.contains("pw") == false, "the password is masked")
        let pointless = #expect(throws: CloudKitError.self) { try PostgresLocation(url: "postgres://db.example/app?sslmode=disable&sslrootcert=/ca.pem") }
        #expect(pointless?.message.contains("sslmode=disable never checks a certificate") == true)
    }

    @Test func eachModeConnectsAsItPromisesAndSaysWhetherItIsEncrypted() throws {
        let authority = try TestPostgres.certificateAuthority()
        #expect(try PostgresBackend.encryption(of: PostgresLocation(url: url("sslmode=disable"))) == nil)
        for options in ["", "sslmode=require", "sslmode=verify-ca&sslrootcert=\(authority)"] {
            let version = try PostgresBackend.encryption(of: PostgresLocation(url: url(options)))
            #expect(version?.hasPrefix("TLSv1.") == true, "\(options.isEmpty ? "the default" : options) is encrypted: \(version ?? "not encrypted")")
        }
        // verify-full checks the name: the certificate is for localhost.
        let full = try PostgresLocation(url: url(host: "localhost", "sslmode=verify-full&sslrootcert=\(authority)"))
        #expect(try PostgresBackend.encryption(of: full)?.hasPrefix("TLSv1.") == true)
    }

    @Test func aStoreWorksOverTLSEndToEnd() throws {
        let authority = try TestPostgres.certificateAuthority()
        let location = try url(host: "localhost", "sslmode=verify-full&sslrootcert=\(authority)")
        defer { TestPostgres.drop(location) }
        let store = try StoreOpener.open(location, ifMissing: .create)
        let db = store.database(.private, user: "__defaultOwner__")
        var record = Record(recordType: "Note", recordID: RecordID(recordName: "n1", zoneID: .default))
        record["title"] = .string("over TLS")
        _ = try db.save(record)
        let reopened = try StoreOpener.open(location, ifMissing: .refuse)
        #expect(try reopened.database(.private, user: "__defaultOwner__").record(for: RecordID(recordName: "n1", zoneID: .default))["title"] == .string("over TLS"))
    }

    @Test func aCertificateNotSignedByATrustedAuthorityIsRefusedClearly() throws {
        // The system's roots do not include the throwaway authority.
        let location = try PostgresLocation(url: url("sslmode=verify-ca"))
        let error = #expect(throws: CloudKitError.self) { try PostgresBackend.encryption(of: location) }
        #expect(error?.code == .serviceUnavailable)
        #expect(error?.message == "Could not connect to the PostgreSQL store \(location.masked): the server's TLS certificate is not signed by "
                + "the system's authorities (sslmode=verify-ca); give sslrootcert=PEM, the certificate of the authority that signed it, "
                + "or sslmode=require to encrypt without checking it.", "\(error?.message ?? "")")

        let missing = try PostgresLocation(url: url("sslmode=verify-full&sslrootcert=/nonexistent/ca.pem"))
        let unreadable = #expect(throws: CloudKitError.self) { try PostgresBackend.encryption(of: missing) }
        #expect(unreadable?.message.contains("sslrootcert /nonexistent/ca.pem cannot be read") == true, "\(unreadable?.message ?? "")")
    }
}

import AsyncHTTPClient
import Foundation
import NIOSSL
import StratusTestSupport
import Testing

/// `stratus serve` beyond loopback: HTTPS with a certificate and key made at test time by
/// openssl, plain HTTP refused (or warned about with --insecure-http) on any other address,
/// and bad certificate or key files said by name before the server listens.
@Suite(.serialized) struct ServeTLSTests {
    static let container = "iCloud.tls"

    /// A self-signed certificate for 127.0.0.1 and localhost and its key, as PEM files in `folder`.
    static func makeCertificate(in folder: TemporaryDirectory, name: String = "server") throws -> (certificate: String, key: String) {
        let certificate = folder.path("\(name).pem"), key = folder.path("\(name)-key.pem")
        let made = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/openssl"), [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key, "-out", certificate,
            "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
        ])
        try #require(made.status == 0, "openssl: \(made.stderr)")
        return (certificate, key)
    }

    @Test func servesHTTPSThatAClientTrustingTheCertificateReaches() async throws {
        let folder = try TemporaryDirectory("stratus-tls")
        defer { folder.remove() }
        let (certificate, key) = try Self.makeCertificate(in: folder)
        let store = folder.storePath
        let apiToken = try StratusBinary.run(["auth", "api-token", "--container", Self.container], store: store).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let server = try ServedStore(store: store, arguments: ["--tls-cert", certificate, "--tls-key", key])
        defer { server.stop() }
        #expect(server.firstLine.hasPrefix("Serving CloudKit Web Services at https://127.0.0.1:"), "\(server.firstLine)")
        let port = try #require(server.port, "serve printed: \(server.firstLine)")
        let path = "127.0.0.1:\(port)/database/1/\(Self.container)/development/public/zones/list?ckAPIToken=\(apiToken)"

        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(certificate))
        let trusting = LoopbackHTTP(configuration: HTTPClient.Configuration(tlsConfiguration: tls))
        // A client must be shut down, or its end stops the test process.
        defer { Task { await trusting.shutdown() } }
        let reply = try await trusting.send("https://" + path)
        #expect(reply.status == 200, "\(reply.text)")
        #expect(reply.zones.compactMap { ($0["zoneID"] as? [String: Any])?["zoneName"] as? String } == ["_defaultZone"], "\(reply.text)")
        // The health check over HTTPS too.
        let health = try await trusting.send("https://127.0.0.1:\(port)/health")
        #expect(health.status == 200 && health.json["status"] as? String == "ok", "\(health.text)")

        // Plain HTTP to the HTTPS port gets no CKWS answer.
        await #expect(throws: (any Error).self) { _ = try await trusting.send("http://" + path) }

        // A client that does not trust the certificate refuses the server.
        let untrusting = LoopbackHTTP(configuration: HTTPClient.Configuration(timeout: .init(connect: .seconds(2))))
        defer { Task { await untrusting.shutdown() } }
        await #expect(throws: (any Error).self) { _ = try await untrusting.send("https://" + path) }
    }

    @Test func plainHTTPBeyondLoopbackIsRefusedUnlessAskedForAndThenWarned() async throws {
        let folder = try TemporaryDirectory("stratus-tls")
        defer { folder.remove() }
        let store = folder.storePath
        let refused = try StratusBinary.run(["serve", "--host", "0.0.0.0", "--port", "0"], store: store)
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(refused.stderr.contains("error: refusing to serve plain HTTP on 0.0.0.0, which is not a loopback address"), "\(refused.stderr)")
        #expect(refused.stderr.contains("in clear text"), "says why: \(refused.stderr)")
        #expect(refused.stderr.contains("--tls-cert FILE.pem --tls-key FILE.pem") && refused.stderr.contains("--insecure-http"), "\(refused.stderr)")
        #expect(refused.stdout.isEmpty, "it never listened: \(refused.stdout)")

        let errors = folder.url("serve.err")
        let server = try ServedStore(store: store, arguments: ["--host", "0.0.0.0", "--insecure-http"], standardError: errors)
        defer { server.stop() }
        #expect(server.firstLine.hasPrefix("Serving CloudKit Web Services at http://0.0.0.0:"), "\(server.firstLine)")
        let warning = try String(contentsOf: errors, encoding: .utf8)
        #expect(warning.hasPrefix("warning: serving plain HTTP on 0.0.0.0 (--insecure-http): plain HTTP sends every API token"), "\(warning)")
        let port = try #require(server.port)
        let http = LoopbackHTTP()
        defer { Task { await http.shutdown() } }
        let health = try await http.send("http://127.0.0.1:\(port)/health")
        #expect(health.status == 200, "\(health.text)")
    }

    @Test func badCertificateAndKeyFilesAreNamed() throws {
        let folder = try TemporaryDirectory("stratus-tls")
        defer { folder.remove() }
        let store = folder.storePath
        let (certificate, key) = try Self.makeCertificate(in: folder)
        let (_, otherKey) = try Self.makeCertificate(in: folder, name: "other")
        let garbage = try folder.write(Data("not a certificate\n".utf8), to: "garbage.pem").path
        func serve(_ certificate: String, _ key: String) throws -> ProcessOutcome {
            try StratusBinary.run(["serve", "--port", "0", "--tls-cert", certificate, "--tls-key", key], store: store)
        }

        let missing = try serve(folder.path("missing.pem"), key)
        #expect(missing.status == 1)
        #expect(missing.stderr == "error: the TLS certificate \(folder.path("missing.pem")) does not exist\n", "\(missing.stderr)")
        let missingKey = try serve(certificate, folder.path("missing-key.pem"))
        #expect(missingKey.stderr == "error: the TLS key \(folder.path("missing-key.pem")) does not exist\n", "\(missingKey.stderr)")
        let notPEM = try serve(garbage, key)
        #expect(notPEM.status == 1)
        #expect(notPEM.stderr.hasPrefix("error: the TLS certificate \(garbage) "), "\(notPEM.stderr)")
        let keyIsACertificate = try serve(certificate, certificate)
        #expect(keyIsACertificate.stderr.hasPrefix("error: the TLS key \(certificate) is not a PEM private key"), "\(keyIsACertificate.stderr)")
        let otherOnesKey = try serve(certificate, otherKey)
        #expect(otherOnesKey.status == 1)
        #expect(otherOnesKey.stderr == "error: the TLS key \(otherKey) does not belong to the certificate \(certificate)\n", "\(otherOnesKey.stderr)")
        let folderAsCertificate = try serve(folder.path(""), key)
        #expect(folderAsCertificate.stderr.contains("is a folder, not a PEM file"), "\(folderAsCertificate.stderr)")

        #expect(try StratusBinary.run(["serve", "--tls-cert", certificate], store: store).status == 2)
        #expect(try StratusBinary.run(["serve", "--tls-cert", certificate, "--tls-key", key, "--insecure-http"], store: store).status == 2)
        for outcome in [missing, notPEM, otherOnesKey] { #expect(outcome.stdout.isEmpty, "it never listened") }
    }
}

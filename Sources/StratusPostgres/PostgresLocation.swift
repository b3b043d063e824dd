import Foundation
import StratusCloud
import StratusEngine

/// Where a PostgreSQL store lives, read from its URL:
/// `postgres://user[:password]@host[:port]/database[?schema=NAME][&sslmode=MODE][&sslrootcert=PEM]`.
/// A store is one schema of a database (default `stratus`), so one database holds several stores
/// (a server's containers and environments). `sslmode` and `sslrootcert` are libpq's (see
/// ``PostgresTLS``). The password never appears in a message: ``masked`` stands in for the URL.
package struct PostgresLocation: Sendable, Equatable {
    package var host: String
    package var port: Int
    package var user: String
    package var password: String?
    package var database: String
    package var schema: String
    package var tls: PostgresTLS

    /// The schema a URL without `?schema=` names.
    package static let defaultSchema = "stratus"

    package init(host: String, port: Int, user: String, password: String?, database: String, schema: String, tls: PostgresTLS = .standard) {
        self.tls = tls
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.database = database
        self.schema = schema
    }

    /// Reads `url`, or fails saying what is wrong with it (the password masked).
    package init(url: String) throws {
        let shown = Self.mask(url)
        func bad(_ problem: String) -> CloudKitError {
            CloudKitError(.badDatabase, "\(shown) is not a PostgreSQL store URL: \(problem). Write postgres://USER@HOST:PORT/DATABASE (optionally ?schema=NAME&sslmode=MODE&sslrootcert=PEM).")
        }
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
              scheme == "postgres" || scheme == "postgresql" else { throw bad("it does not start with postgres://") }
        guard let host = components.host, !host.isEmpty else { throw bad("it names no host") }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else { throw bad("it names no database (the path after the host)") }
        if let port = components.port, !(1...65_535).contains(port) { throw bad("the port \(port) is out of range") }
        var schema = Self.defaultSchema
        var tls = PostgresTLS.standard
        for item in components.queryItems ?? [] {
            guard let value = item.value else { throw bad("its option '\(item.name)' has no value") }
            switch item.name {
            case "schema": schema = value
            case "sslmode":
                guard let mode = PostgresTLS.Mode(rawValue: value) else {
                    throw bad("sslmode '\(value)' is not one of \(PostgresTLS.Mode.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                tls.mode = mode
            case "sslrootcert": tls.rootCertificate = (value as NSString).expandingTildeInPath
            default: throw bad("it has an unknown option '\(item.name)'")
            }
        }
        guard Self.isPlainName(schema) else { throw bad("the schema '\(schema)' is not a plain name (lowercase letters, digits and _)") }
        if tls.rootCertificate != nil, tls.mode == .disable {
            throw bad("sslrootcert is given but sslmode=disable never checks a certificate")
        }
        self.init(host: host, port: components.port ?? 5432, user: components.user ?? "postgres", password: components.password,
                  database: database, schema: schema, tls: tls)
    }

    /// The options after `schema` that differ from the defaults, as the URL writes them.
    private var tlsQueryItems: [URLQueryItem] {
        var items: [URLQueryItem] = []
        if tls.mode != PostgresTLS.standard.mode { items.append(URLQueryItem(name: "sslmode", value: tls.mode.rawValue)) }
        if let root = tls.rootCertificate { items.append(URLQueryItem(name: "sslrootcert", value: root)) }
        return items
    }

    /// The URL with its password masked, for messages.
    package var masked: String {
        "postgres://\(user)\(password == nil ? "" : ":***")@\(host):\(port)/\(database)?schema=\(schema)"
            + tlsQueryItems.map { "&\($0.name)=\($0.value ?? "")" }.joined()
    }

    /// The URL again (password included), for another process or handle to open.
    package var url: String {
        var components = URLComponents()
        components.scheme = "postgres"
        components.user = user
        components.password = password
        components.host = host
        components.port = port
        components.path = "/" + database
        components.queryItems = [URLQueryItem(name: "schema", value: schema)] + tlsQueryItems
        return components.string ?? masked
    }

    /// The schema of a server's store for one container and environment: a plain name made
    /// from the container's (lowercased, other characters as `_`, cut to fit) with a digest of
    /// the exact name, so two containers never share one.
    package static func schema(container: String, environment: String) -> String {
        let plain = String(container.lowercased().unicodeScalars.map { scalar -> Character in
            ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) ? Character(scalar) : "_"
        }.prefix(36))
        let digest = SHA256.hexDigest(Data(container.utf8)).prefix(8)
        return "c_\(plain)_\(digest)_\(environment.lowercased().prefix(11))"
    }

    /// The same database with another schema (a server's store per container and environment).
    package func withSchema(_ schema: String) -> PostgresLocation {
        var copy = self
        copy.schema = schema
        return copy
    }

    /// Schema names are plain so they can be written into SQL as identifiers.
    package static func isPlainName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || ("a"..."z").contains(first), name.utf8.count <= 63 else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || ("a"..."z").contains($0) || ("0"..."9").contains($0) }
    }

    /// `url` with any password replaced by `***`.
    package static func mask(_ url: String) -> String {
        guard let at = url.lastIndex(of: "@"), let schemeEnd = url.range(of: "://"), schemeEnd.upperBound < at else { return url }
        let credentials = url[schemeEnd.upperBound..<at]
        guard let colon = credentials.firstIndex(of: ":") else { return url }
        return String(url[..<colon]) + ":***" + String(url[at...])
    }
}

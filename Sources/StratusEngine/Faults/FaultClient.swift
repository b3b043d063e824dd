import Foundation

/// Which front end a call comes through, as the fault plan matches it. A plan is for the
/// clients under test (an app through `stratus serve`, a script through the command line); the
/// dashboard that watches them is left alone unless a fault names it, so its own reads do not
/// fail every third run of a `zoneBusy --every 3`.
public enum FaultClient: String, Sendable, Hashable, CaseIterable, Comparable {
    case server, cli, dashboard

    /// The clients a fault reaches when it names none.
    public static let byDefault: Set<FaultClient> = [.server, .cli]

    /// The clients `server,cli`-style text names, or nil naming the word it does not know.
    public static func parse(_ text: String) -> Result<Set<FaultClient>, FaultClientError> {
        var clients: Set<FaultClient> = []
        for word in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) where !word.isEmpty {
            guard let client = FaultClient(rawValue: word) else { return .failure(FaultClientError(word: word)) }
            clients.insert(client)
        }
        return clients.isEmpty ? .failure(FaultClientError(word: text)) : .success(clients)
    }

    /// The stored form: the names in a fixed order, comma-separated.
    public static func text(_ clients: Set<FaultClient>) -> String {
        clients.sorted().map(\.rawValue).joined(separator: ",")
    }

    public static func < (lhs: FaultClient, rhs: FaultClient) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// A client name that is not one of `server`, `cli` and `dashboard`.
public struct FaultClientError: Error, Sendable {
    public var word: String
    public var message: String { "'\(word)' is not a client: use server, cli or dashboard (comma-separated)" }
}

/// The three databases of a container.
public enum DatabaseScope: Int, CaseIterable, Sendable, CustomStringConvertible {
    case `public` = 1
    case `private` = 2
    case shared = 3

    public var description: String { name }

    /// The lower-case name the command line and Web Services use.
    public var name: String {
        switch self {
        case .public: return "public"
        case .private: return "private"
        case .shared: return "shared"
        }
    }

    public init?(name: String) {
        switch name.lowercased() {
        case "public": self = .public
        case "private": self = .private
        case "shared": self = .shared
        default: return nil
        }
    }

    /// Whether custom zones can be made here; CloudKit allows them only in the private database.
    public var allowsCustomZones: Bool { self == .private }

    /// Whether the database has a change feed; the public database has none in CloudKit.
    public var hasChangeFeed: Bool { self != .public }
}

/// What `stratus --version` prints: the release (the newest entry of CHANGELOG.md) and the
/// commit it was built from, so a bug report names exactly what ran.
enum StratusVersion {
    /// The release, as CHANGELOG.md names it.
    static let number = "0.1.0"

    /// `stratus 0.1.0 (commit 1a2b3c4d5e6f)`.
    static var description: String { "stratus \(number) (commit \(BuildCommit.id))" }
}

import StratusEngine

/// What a logged request sent and what the server answered, scrolled as one text.
struct RequestBodiesState: Sendable {
    var entry: RequestLogEntry
    var bodies: RequestBodies
    /// The first line shown.
    var scroll = 0
}

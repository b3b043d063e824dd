import StratusCKWS
import Synchronization

/// The query behind each continuation marker a process received: CKWS asks for the query again
/// with its marker, while a cursor, as a front end holds it, is only the marker. A marker from
/// another process (`query --cursor`) goes out alone, which `stratus serve` reads.
final class QueryMarkers: Sendable {
    private let known = Mutex<[String: JSONValue]>([:])
    private static let limit = 1_000

    func remember(_ marker: String, request: JSONValue) {
        known.withLock { all in
            if all.count >= QueryMarkers.limit { all.removeAll() }
            all[marker] = request
        }
    }

    /// The request members (`zoneID`, `query`) that made `marker`, if this process saw it.
    func request(for marker: String) -> JSONValue? {
        known.withLock { $0[marker] }
    }
}

import Foundation

/// The latitude and longitude box around a circle, a little wider than it: what a baseline's
/// spatial index is asked before the exact distance is checked (`query-location`).
struct BaselineBox {
    let latitude: Double
    let longitude: Double
    let kilometres: Double

    /// Lowest and highest latitude, lowest and highest longitude.
    var bounds: [Double] {
        let degrees = kilometres / 111 + 0.01
        let longitudeDegrees = kilometres / (111 * cos(abs(latitude) * Double.pi / 180 + Double.pi / 180)) + 0.01
        return [latitude - degrees, latitude + degrees, longitude - longitudeDegrees, longitude + longitudeDegrees]
    }
}

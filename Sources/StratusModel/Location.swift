import Foundation

/// A geographic location, as CLLocation carries it and CloudKit stores it.
public struct Location: Hashable, Sendable {
    public var latitude: Double
    public var longitude: Double
    public var altitude: Double?
    public var horizontalAccuracy: Double?
    public var verticalAccuracy: Double?
    public var course: Double?
    public var speed: Double?
    /// Milliseconds since 1970, as Web Services sends it.
    public var timestamp: Date?

    public init(
        latitude: Double, longitude: Double, altitude: Double? = nil,
        horizontalAccuracy: Double? = nil, verticalAccuracy: Double? = nil,
        course: Double? = nil, speed: Double? = nil, timestamp: Date? = nil
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.course = course
        self.speed = speed
        self.timestamp = timestamp
    }

    /// Whether the coordinates are on Earth.
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && (-90...90).contains(latitude) && (-180...180).contains(longitude)
    }

    /// Mean Earth radius used for great-circle distances, in kilometres.
    public static let earthRadiusKilometres = 6371.0088

    /// The great-circle (haversine) distance in kilometres; altitude is ignored, as
    /// `CKLocationSortDescriptor` ignores it.
    public func distance(to other: Location) -> Double {
        let toRadians = Double.pi / 180
        let lat1 = latitude * toRadians, lat2 = other.latitude * toRadians
        let dLat = lat2 - lat1
        let dLon = (other.longitude - longitude) * toRadians
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1) * cos(lat2) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * Location.earthRadiusKilometres * asin(min(1, sqrt(a)))
    }
}

import Foundation

extension Location {
    /// Reads `LATITUDE,LONGITUDE` in degrees, spaces allowed around each number, as people type
    /// a location on the command line, in a predicate's CAST and in the dashboard's forms.
    ///
    /// Nil unless the text is exactly two finite numbers. Whether the point is on Earth is left
    /// to `isValid`, so each caller can word that refusal its own way.
    public init?(coordinates text: some StringProtocol) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
              latitude.isFinite, longitude.isFinite else { return nil }
        self.init(latitude: latitude, longitude: longitude)
    }
}

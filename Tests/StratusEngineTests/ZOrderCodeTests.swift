import Foundation
import Testing
import StratusModel
@testable import StratusEngine

/// The Z-order cover must hold every location in its box (a miss is a record a distance query
/// silently loses) and stay close to the box (a loose cover reads far more rows than needed).
@Suite struct ZOrderCodeTests {
    private func contains(_ ranges: [ClosedRange<Int64>], _ code: Int64) -> Bool {
        var low = 0, high = ranges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            if ranges[middle].upperBound < code { low = middle + 1 } else if ranges[middle].lowerBound > code { high = middle - 1 } else { return true }
        }
        return false
    }

    /// Random boxes from a metre to half the globe, some on the poles and the antimeridian.
    private func randomBoxes(count: Int) -> [(ClosedRange<Double>, ClosedRange<Double>)] {
        var random = SeededGenerator(seed: 7)
        func unit() -> Double { Double(random.next() % 1_000_001) / 1_000_000 }
        return (0..<count).map { index in
            let size = pow(10, -5 + 7.3 * unit())
            var latitude = -90 + 180 * unit(), longitude = -180 + 360 * unit()
            switch index % 5 {
            case 0: latitude = 90 - size / 2
            case 1: latitude = -90
            case 2: longitude = 180 - size / 2
            default: break
            }
            let latitudes = max(-90, latitude)...min(90, latitude + size / 2)
            let longitudes = max(-180, longitude)...min(180, longitude + size)
            return (latitudes, longitudes)
        }
    }

    @Test func everyLocationInsideTheBoxHasACodeInTheCover() {
        var random = SeededGenerator(seed: 11)
        func unit() -> Double { Double(random.next() % 1_000_001) / 1_000_000 }
        for (latitudes, longitudes) in randomBoxes(count: 400) {
            let ranges = ZOrderCode.ranges(latitudes: latitudes, longitudes: [longitudes])
            let thin = ZOrderCode.isThin(x: ZOrderCode.longitudeStep(longitudes.lowerBound)...ZOrderCode.longitudeStep(longitudes.upperBound),
                                         y: ZOrderCode.latitudeStep(latitudes.lowerBound)...ZOrderCode.latitudeStep(latitudes.upperBound))
            #expect(!ranges.isEmpty && ranges.count <= (thin ? 32 * 8 : 32), "\(ranges.count) ranges for \(latitudes) x \(longitudes)")
            #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound + 1 < $1.lowerBound }, "ranges are sorted, apart")
            let corners = [(latitudes.lowerBound, longitudes.lowerBound), (latitudes.upperBound, longitudes.upperBound),
                           (latitudes.lowerBound, longitudes.upperBound), (latitudes.upperBound, longitudes.lowerBound)]
            let inside = (0..<100).map { _ in
                (latitudes.lowerBound + (latitudes.upperBound - latitudes.lowerBound) * unit(),
                 longitudes.lowerBound + (longitudes.upperBound - longitudes.lowerBound) * unit())
            }
            for (latitude, longitude) in corners + inside {
                let code = ZOrderCode.code(Location(latitude: latitude, longitude: longitude))
                #expect(contains(ranges, code), "(\(latitude), \(longitude)) is inside \(latitudes) x \(longitudes)")
            }
        }
    }

    @Test func theCoverStaysCloseToTheBox() {
        // A 2 km box in Cupertino: the cover may hold a few times its area, not a whole region.
        let latitudes = 37.32...37.34, longitudes = -122.04 ... -122.02
        let ranges = ZOrderCode.ranges(latitudes: latitudes, longitudes: [longitudes])
        let covered = ranges.reduce(0.0) { $0 + Double($1.upperBound - $1.lowerBound + 1) }
        let box = Double(ZOrderCode.latitudeStep(latitudes.upperBound) - ZOrderCode.latitudeStep(latitudes.lowerBound) + 1)
            * Double(ZOrderCode.longitudeStep(longitudes.upperBound) - ZOrderCode.longitudeStep(longitudes.lowerBound) + 1)
        #expect(covered >= box)
        #expect(covered < box * 3, "cover is \(covered / box) times the box")
        // The whole world is one range.
        #expect(ZOrderCode.ranges(latitudes: -90...90, longitudes: [-180...180]) == [0...(Int64(1) << 62) - 1])
    }

    /// The cover's size in codes over the box's, for a query circle.
    private func looseness(center: Location, kilometres: Double) -> (Double, Int) {
        let box = LocationBox(center: center, kilometres: kilometres)
        let ranges = ZOrderCode.ranges(latitudes: box.minLatitude...box.maxLatitude, longitudes: box.longitudes)
        let covered = ranges.reduce(0.0) { $0 + Double($1.upperBound - $1.lowerBound + 1) }
        let height = Double(ZOrderCode.latitudeStep(box.maxLatitude) - ZOrderCode.latitudeStep(box.minLatitude) + 1)
        let width = box.longitudes.reduce(0.0) { $0 + Double(ZOrderCode.longitudeStep($1.upperBound) - ZOrderCode.longitudeStep($1.lowerBound) + 1) }
        return (covered / (height * width), ranges.count)
    }

    @Test func thinBoxesNearThePolesGetATightCoverToo() {
        for (latitude, kilometres) in [(89.9, 10.0), (-89.95, 10.0), (85.0, 50.0), (0.0, 10.0), (37.33, 25.0), (-17.0, 5.0)] {
            let (ratio, count) = looseness(center: Location(latitude: latitude, longitude: 179.99), kilometres: kilometres)
            #expect(ratio < 6, "latitude \(latitude): the cover is \(ratio) times the box")
            #expect(count <= 256, "one index seek per range")
        }
    }

    @Test func theAntimeridianIsOneMeridianAndBadCoordinatesClamp() {
        let west = ZOrderCode.ranges(latitudes: 0...1, longitudes: [-180 ... -179])
        #expect(contains(west, ZOrderCode.code(Location(latitude: 0.5, longitude: 180))))
        let east = ZOrderCode.ranges(latitudes: 0...1, longitudes: [179...180])
        #expect(contains(east, ZOrderCode.code(Location(latitude: 0.5, longitude: -180))))
        // The added meridian is a thin box, but it does not get the thin-box budget.
        #expect(west.count <= 32 && east.count <= 32)
        // Neither reads the other side of the world for it.
        #expect(!contains(west, ZOrderCode.code(Location(latitude: 0.5, longitude: 0))))
        // Off the Earth (as an unchecked query could hold) clamps instead of trapping.
        #expect(ZOrderCode.code(Location(latitude: 1e300, longitude: -1e300)) == ZOrderCode.code(Location(latitude: 90, longitude: -180)))
        #expect(ZOrderCode.code(Location(latitude: .nan, longitude: .infinity)) == ZOrderCode.code(Location(latitude: -90, longitude: -180)))
    }

    @Test func nearbyLocationsShareLongPrefixes() {
        let a = ZOrderCode.code(Location(latitude: 37.331913, longitude: -122.030210))
        let b = ZOrderCode.code(Location(latitude: 37.331914, longitude: -122.030211))
        let far = ZOrderCode.code(Location(latitude: -33.86, longitude: 151.21))
        #expect((a ^ b).leadingZeroBitCount > (a ^ far).leadingZeroBitCount + 20)
        #expect(ZOrderCode.code(Location(latitude: -90, longitude: -180)) == 0)
        #expect(ZOrderCode.code(Location(latitude: 90, longitude: 180)) == (Int64(1) << 62) - 1)
    }
}

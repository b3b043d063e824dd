import StratusModel
import StratusCloud

/// The Z-order (Morton) code a location is indexed under in `field_value`, and the code ranges
/// that cover a latitude/longitude box.
///
/// Latitude and longitude are each cut into 2^31 steps (under a centimetre) and their bits
/// interleaved, so nearby places mostly share a prefix and a box is covered by a few ranges of
/// codes. A location index is then an ordinary B-tree of integers: a bulk import writes it in
/// key order like any other value index, where an R*Tree insert costs a tree descent and
/// rebalancing per point (13.6 of the 34 s SQLite alone needed to load the 1M-record demo).
/// This is how the FoundationDB Record Layer indexes space too (geophile's Z-order cells).
///
/// Ranges cover at least the box, never less; the query checks the exact distance afterwards.
package enum ZOrderCode {
    /// Bits per axis; the code uses twice as many, so it is a non-negative Int64.
    static let bits = 31
    private static let steps = Double(Int64(1) << bits)
    private static let maxStep = (Int64(1) << bits) - 1

    /// The code of a location (valid coordinates; others are clamped to the nearest edge).
    static func code(_ location: Location) -> Int64 {
        interleave(longitudeStep(location.longitude), latitudeStep(location.latitude))
    }

    /// Code ranges, sorted and disjoint, whose union holds the code of every location with
    /// latitude in `latitudes` and longitude in one of `longitudes` (a range reaching ±180
    /// also takes the locations stored at ∓180). At most about `maxRanges` ranges (eight times
    /// as many for a thin box): cells are split while the budget allows, then taken whole.
    package static func ranges(latitudes: ClosedRange<Double>, longitudes: [ClosedRange<Double>], maxRanges: Int = 32) -> [ClosedRange<Int64>] {
        // -180 and +180 are one meridian, and a location may be stored under either.
        let reachesWest = longitudes.contains { $0.lowerBound <= -180 }, reachesEast = longitudes.contains { $0.upperBound >= 180 }
        var meridian: Double?
        if reachesWest, !reachesEast { meridian = 180 }
        if reachesEast, !reachesWest { meridian = -180 }
        let budget = max(1, maxRanges / (longitudes.count + (meridian == nil ? 0 : 1)))
        let y = latitudeStep(latitudes.lowerBound)...latitudeStep(latitudes.upperBound)
        var ranges: [ClosedRange<Int64>] = []
        for longitude in longitudes {
            let x = longitudeStep(longitude.lowerBound)...longitudeStep(longitude.upperBound)
            // Square cells cover a thin box (a circle near a pole spans every longitude) badly:
            // such a box gets more, smaller cells; each range is one more index seek.
            ranges += cover(x: x, y: y, budget: isThin(x: x, y: y) ? budget * 8 : budget)
        }
        if let meridian {
            let x = longitudeStep(meridian)...longitudeStep(meridian)
            ranges += cover(x: x, y: y, budget: budget)
        }
        return merged(ranges)
    }

    /// Whether a box of steps is over eight times longer one way than the other.
    static func isThin(x: ClosedRange<Int64>, y: ClosedRange<Int64>) -> Bool {
        let width = Double(x.upperBound - x.lowerBound + 1), height = Double(y.upperBound - y.lowerBound + 1)
        return max(width / height, height / width) > 8
    }

    static func latitudeStep(_ latitude: Double) -> Int64 { step((latitude + 90) / 180) }

    static func longitudeStep(_ longitude: Double) -> Int64 { step((longitude + 180) / 360) }

    /// Clamped before the conversion, which would trap on a value past Int64 (a location
    /// off the Earth in a query that no checker refused).
    private static func step(_ fraction: Double) -> Int64 {
        guard fraction.isFinite else { return 0 }
        return min(maxStep, Int64((min(1, max(0, fraction)) * steps).rounded(.down)))
    }

    /// A square of the quadtree: at `level`, the `x`-th column and `y`-th row of 2^level each.
    private struct Cell {
        var level: Int
        var x: Int64
        var y: Int64

        var shift: Int64 { Int64(ZOrderCode.bits - level) }
        var xSteps: ClosedRange<Int64> { (x << shift)...(((x + 1) << shift) - 1) }
        var ySteps: ClosedRange<Int64> { (y << shift)...(((y + 1) << shift) - 1) }
        /// Every code inside the cell: its low bits run from all zeros to all ones.
        var codes: ClosedRange<Int64> {
            ZOrderCode.interleave(xSteps.lowerBound, ySteps.lowerBound)...ZOrderCode.interleave(xSteps.upperBound, ySteps.upperBound)
        }
        var children: [Cell] {
            [(0, 0), (1, 0), (0, 1), (1, 1)].map { Cell(level: level + 1, x: x * 2 + $0.0, y: y * 2 + $0.1) }
        }
    }

    /// Splits the cells that straddle the box's edge, level by level, until another level
    /// would pass the budget; cells inside the box are kept whole as they appear.
    private static func cover(x: ClosedRange<Int64>, y: ClosedRange<Int64>, budget: Int) -> [ClosedRange<Int64>] {
        func inside(_ cell: Cell) -> Bool {
            x.lowerBound <= cell.xSteps.lowerBound && cell.xSteps.upperBound <= x.upperBound
                && y.lowerBound <= cell.ySteps.lowerBound && cell.ySteps.upperBound <= y.upperBound
        }
        var whole: [ClosedRange<Int64>] = []
        var straddling = [Cell(level: 0, x: 0, y: 0)]
        while !straddling.isEmpty {
            let children = straddling.flatMap(\.children).filter { x.overlaps($0.xSteps) && y.overlaps($0.ySteps) }
            guard straddling[0].level < bits, whole.count + children.count <= budget else {
                return whole + straddling.map(\.codes)
            }
            straddling = []
            for child in children {
                if inside(child) { whole.append(child.codes) } else { straddling.append(child) }
            }
        }
        return whole
    }

    private static func merged(_ ranges: [ClosedRange<Int64>]) -> [ClosedRange<Int64>] {
        var result: [ClosedRange<Int64>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = result.last, range.lowerBound <= last.upperBound + 1 {
                result[result.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                result.append(range)
            }
        }
        return result
    }

    /// Longitude steps in the even bits, latitude steps in the odd ones.
    static func interleave(_ x: Int64, _ y: Int64) -> Int64 { Int64(bitPattern: spread(UInt64(x)) | spread(UInt64(y)) << 1) }

    /// Moves bit i of a 32-bit value to bit 2i.
    private static func spread(_ value: UInt64) -> UInt64 {
        var v = value & 0xFFFF_FFFF
        v = (v | v << 16) & 0x0000_FFFF_0000_FFFF
        v = (v | v << 8) & 0x00FF_00FF_00FF_00FF
        v = (v | v << 4) & 0x0F0F_0F0F_0F0F_0F0F
        v = (v | v << 2) & 0x3333_3333_3333_3333
        v = (v | v << 1) & 0x5555_5555_5555_5555
        return v
    }
}

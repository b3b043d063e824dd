/// The standard xterm-256 palette, used to step colours down by nearest distance.
///
/// The first 16 entries are the user's palette in reality; the xterm defaults stand in for
/// them, which is what every nearest-colour mapping has to assume.
enum XtermPalette {
    /// RGB of the 16 ANSI colours (xterm defaults).
    static let ansi: [(UInt8, UInt8, UInt8)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0),
        (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0),
        (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ]

    /// The six levels of the 6x6x6 colour cube (indices 16...231).
    static let cubeLevels: [Int] = [0, 95, 135, 175, 215, 255]

    /// RGB of a palette index.
    static func rgb(of index: UInt8) -> (Int, Int, Int) {
        let value = Int(index)
        if value < 16 {
            let entry = ansi[value]
            return (Int(entry.0), Int(entry.1), Int(entry.2))
        }
        if value < 232 {
            let cube = value - 16
            return (cubeLevels[cube / 36], cubeLevels[cube / 6 % 6], cubeLevels[cube % 6])
        }
        let gray = 8 + (value - 232) * 10
        return (gray, gray, gray)
    }

    /// Nearest index in 16...255 (the cube or the gray ramp; the first 16 are user-defined,
    /// so they are not reliable targets for a truecolor value).
    static func nearest256(red: Int, green: Int, blue: Int) -> UInt8 {
        func cubeStep(_ component: Int) -> Int {
            var best = 0
            for (step, level) in cubeLevels.enumerated() where abs(level - component) < abs(cubeLevels[best] - component) {
                best = step
            }
            return best
        }
        let cubeIndex = 16 + 36 * cubeStep(red) + 6 * cubeStep(green) + cubeStep(blue)
        let average = (red + green + blue) / 3
        let grayStep = max(0, min(23, (average - 3) / 10))
        let grayIndex = 232 + grayStep
        let cubeDistance = distance(rgb(of: UInt8(cubeIndex)), (red, green, blue))
        let grayDistance = distance(rgb(of: UInt8(grayIndex)), (red, green, blue))
        return UInt8(grayDistance < cubeDistance ? grayIndex : cubeIndex)
    }

    /// Nearest of the 16 ANSI colours.
    static func nearest16(red: Int, green: Int, blue: Int) -> UInt8 {
        var best = 0
        var bestDistance = Int.max
        for index in 0..<16 {
            let candidate = distance(rgb(of: UInt8(index)), (red, green, blue))
            if candidate < bestDistance {
                best = index
                bestDistance = candidate
            }
        }
        return UInt8(best)
    }

    /// Squared distance, weighted for the eye's sensitivity (a cheap "redmean" approximation).
    static func distance(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Int {
        let meanRed = (a.0 + b.0) / 2
        let dr = a.0 - b.0
        let dg = a.1 - b.1
        let db = a.2 - b.2
        return ((512 + meanRed) * dr * dr >> 8) + 4 * dg * dg + ((767 - meanRed) * db * db >> 8)
    }
}

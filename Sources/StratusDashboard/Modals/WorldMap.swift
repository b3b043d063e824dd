import StratusModel

/// A location on a small map of the world, drawn in braille (each cell two dots wide and four
/// high, so the dots are square and the map keeps the proportions of its plate carrée): a place
/// is easier seen on a map than read as two numbers.
struct WorldMap: Equatable {
    /// The map's rows, `4 × height` braille cells each.
    let lines: [String]
    /// The cell that holds the location.
    let markerColumn: Int
    let markerRow: Int

    /// The marker: a disc, unlike any braille dots around it (and as narrow as the borders'
    /// box drawing, which the dashboard already relies on).
    static let marker: Character = "●"

    /// The world `height` cells high with `location` marked; nil for less than two rows (too
    /// coarse to recognise) or an invalid location.
    init?(_ location: Location, height: Int) {
        guard height >= 2, location.isValid else { return nil }
        let width = height * 4
        let dotsAcross = width * 2, dotsDown = height * 4
        var cells = Array(repeating: Array(repeating: UInt32(0), count: width), count: height)
        for dotY in 0..<dotsDown {
            for dotX in 0..<dotsAcross where Self.isLand(dotX: dotX, dotY: dotY, dotsAcross: dotsAcross, dotsDown: dotsDown) {
                cells[dotY / 4][dotX / 2] |= Self.dotBit(x: dotX % 2, y: dotY % 4)
            }
        }
        let column = min(width - 1, Int((location.longitude + 180) / 360 * Double(width)))
        let row = min(height - 1, Int((90 - location.latitude) / 180 * Double(height)))
        lines = cells.enumerated().map { index, rowCells in
            String(rowCells.enumerated().map { cellColumn, bits in
                index == row && cellColumn == column ? Self.marker : Character(Unicode.Scalar(0x2800 + bits)!)
            })
        }
        markerColumn = column
        markerRow = row
    }

    /// `35.68° N, 139.76° E`: the hemisphere in words rather than a sign.
    static func caption(_ location: Location) -> String {
        func degrees(_ value: Double, _ positive: String, _ negative: String) -> String {
            let rounded = (abs(value) * 100).rounded() / 100
            let text = rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
            return "\(text)° \(value < 0 ? negative : positive)"
        }
        return "\(degrees(location.latitude, "N", "S")), \(degrees(location.longitude, "E", "W"))"
    }

    /// A dot is land when more than a third of the mask's cells under it are.
    private static func isLand(dotX: Int, dotY: Int, dotsAcross: Int, dotsDown: Int) -> Bool {
        let columns = span(dotX, of: dotsAcross, cells: landColumns)
        let rows = span(dotY, of: dotsDown, cells: landRows.count)
        var land = 0
        for row in rows {
            for column in columns where landRows[row][column] { land += 1 }
        }
        return land * 3 > columns.count * rows.count
    }

    /// The mask cells under dot `index` of `count` across `cells`.
    private static func span(_ index: Int, of count: Int, cells: Int) -> Range<Int> {
        let start = index * cells / count
        return start..<max(start + 1, (index + 1) * cells / count)
    }

    /// Braille's dot numbering: the left column is dots 1-3 and 7, the right 4-6 and 8.
    private static func dotBit(x: Int, y: Int) -> UInt32 {
        switch (x, y) {
        case (0, 3): return 0x40
        case (1, 3): return 0x80
        default: return UInt32(1) << UInt32(x * 3 + y)
        }
    }

    private static let landColumns = 180
    private static let landRows: [[Bool]] = LandMask.hexRows.map { hex in
        hex.flatMap { digit -> [Bool] in
            let value = Int(String(digit), radix: 16) ?? 0
            return (0..<4).map { value & (8 >> $0) != 0 }
        }
    }
}

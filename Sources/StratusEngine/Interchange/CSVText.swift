import Foundation
import StratusCloud

/// RFC 4180 comma-separated text: rows of cells, quoted where they must be.
///
/// Spreadsheets cannot tell an empty cell from a missing one, but records can (an empty string
/// is a value, an absent field is not): so a cell is `nil` when written bare and empty, and ""
/// when written as `""`. The writer keeps that distinction, and the reader gives it back.
public enum CSVText {
    /// A problem in CSV text, with the row and column (from 1) where it is.
    public struct SyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
        public var row: Int
        public var column: Int
        public var message: String
        public var description: String { "row \(row), column \(column): \(message)" }
    }

    /// One row as a line, ending with CRLF as RFC 4180 says.
    public static func line(_ cells: [String?]) -> String {
        cells.map(cell).joined(separator: ",") + "\r\n"
    }

    /// A cell as written: bare when it can be, quoted when it holds a comma, a quote, a line
    /// break or spaces at either end, and `""` for an empty string.
    public static func cell(_ text: String?) -> String {
        guard let text else { return "" }
        let needsQuotes = text.isEmpty || text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
            || text.first == " " || text.last == " "
        guard needsQuotes else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Every row of `text`; blank lines are skipped. A quoted cell may span lines.
    public static func rows(_ text: String) throws(SyntaxError) -> [[String?]] {
        var rows: [[String?]] = []
        var row: [String?] = []
        var cell = ""
        var quoted = false
        var inQuotes = false
        var afterQuote = false
        var rowNumber = 1
        var column = 1
        var scalars = Array(text.unicodeScalars)
        if scalars.first == "\u{FEFF}" { scalars.removeFirst() }  // a spreadsheet's byte order mark
        var index = 0
        func endCell() {
            row.append(quoted || !cell.isEmpty ? cell : nil)
            cell = ""
            quoted = false
            afterQuote = false
        }
        func endRow() {
            endCell()
            if !(row.count == 1 && row[0] == nil) { rows.append(row) }
            row = []
            rowNumber += 1
            column = 1
        }
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            if inQuotes {
                if scalar == "\"" {
                    if index < scalars.count, scalars[index] == "\"" {
                        cell.unicodeScalars.append("\"")
                        index += 1
                    } else {
                        inQuotes = false
                        afterQuote = true
                    }
                } else {
                    cell.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case ",":
                endCell()
                column += 1
            case "\r":
                if index < scalars.count, scalars[index] == "\n" { index += 1 }
                endRow()
            case "\n":
                endRow()
            case "\"" where cell.isEmpty && !quoted:
                inQuotes = true
                quoted = true
            default:
                if afterQuote {
                    throw SyntaxError(row: rowNumber, column: column, message: "text after a closing quote; write a quote inside a quoted cell as \"\"")
                }
                if scalar == "\"" {
                    throw SyntaxError(row: rowNumber, column: column, message: "a quote inside a bare cell; quote the whole cell and write the quote as \"\"")
                }
                cell.unicodeScalars.append(scalar)
            }
        }
        if inQuotes { throw SyntaxError(row: rowNumber, column: column, message: "a quoted cell is not closed before the end of the text") }
        if quoted || !cell.isEmpty || !row.isEmpty { endRow() }
        return rows
    }
}

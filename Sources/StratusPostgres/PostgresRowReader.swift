import Foundation
import PostgresNIO

/// One result row read by column position, for the storage types' row mappers.
package struct PostgresRowReader {
    private let cells: PostgresRandomAccessRow

    init(_ row: PostgresRow) { cells = row.makeRandomAccess() }

    package func int(_ column: Int) throws -> Int64 { try cells[column].decode(Int64.self) }

    package func optionalInt(_ column: Int) throws -> Int64? { try cells[column].decode(Int64?.self) }

    package func string(_ column: Int) throws -> String { try cells[column].decode(String.self) }

    package func optionalString(_ column: Int) throws -> String? { try cells[column].decode(String?.self) }

    package func double(_ column: Int) throws -> Double? { try cells[column].decode(Double?.self) }

    package func bool(_ column: Int) throws -> Bool { try cells[column].decode(Bool.self) }

    package func data(_ column: Int) throws -> Data { try cells[column].decode(Data.self) }

    package func optionalData(_ column: Int) throws -> Data? { try cells[column].decode(Data?.self) }

    package func strings(_ column: Int) throws -> [String] { try cells[column].decode([String].self) }
}

import GRDB
import GRDBSQLite
import StratusCloud
import StratusEngine
import StratusModel

/// SQLite holds index values as its own INTEGER, REAL and TEXT, which compare as the engine
/// expects (numbers before text, text by bytes).
extension IndexValue: DatabaseValueConvertible {
    package var databaseValue: DatabaseValue {
        switch self {
        case .integer(let number): number.databaseValue
        case .real(let number): number.databaseValue
        case .text(let text): text.databaseValue
        }
    }

    package static func fromDatabaseValue(_ dbValue: DatabaseValue) -> IndexValue? {
        switch dbValue.storage {
        case .int64(let number): .integer(number)
        case .double(let number): .real(number)
        case .string(let text): .text(text)
        default: nil
        }
    }

    /// The value in column `index` of the row `statement` stands on; nil for NULL or a blob.
    init?(sqliteStatement statement: SQLiteStatement, index: CInt) {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: self = .integer(sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT: self = .real(sqlite3_column_double(statement, index))
        case SQLITE_TEXT: self = .text(String(sqliteStatement: statement, index: index))
        default: return nil
        }
    }
}

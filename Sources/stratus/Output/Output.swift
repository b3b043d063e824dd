import Foundation
import StratusEngine
import StratusCKWS

/// Writes to standard output; JSON documents end with a newline.
enum Output {
    static func line(_ text: String = "") {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func json(_ value: JSONValue) {
        line(JSONWriter.string(value, pretty: false))
    }

    static func warn(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}

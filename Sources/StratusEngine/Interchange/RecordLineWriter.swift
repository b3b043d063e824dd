import Foundation
import StratusModel
import StratusCloud
import StratusCKWS

/// Writes a stored record as one line of JSON straight into a byte buffer: the exact bytes of
/// `JSONWriter.string(RecordJSON.encode(record))` (a test holds the two together), without
/// building the `JSONValue` tree, so an export runs at disk speed.
///
/// `assetURL` is called for each asset value and returns the `downloadURL` to add (the first
/// time an asset appears in an export), or nil.
enum RecordLineWriter {
    static func write(_ stored: StoredRecord, fields: [String: FieldValue], typeName: String, zoneID: ZoneID,
                      into out: inout [UInt8], assetURL: (Asset) throws -> String?) throws {
        out.append(contentsOf: #"{"recordName":"#.utf8)
        RecordLineWriter.string(stored.name, into: &out)
        out.append(contentsOf: #","recordType":"#.utf8)
        RecordLineWriter.string(typeName, into: &out)
        out.append(contentsOf: #","recordChangeTag":"#.utf8)
        RecordLineWriter.string(stored.changeTag, into: &out)
        out.append(contentsOf: #","zoneID":{"zoneName":"#.utf8)
        RecordLineWriter.string(zoneID.zoneName, into: &out)
        out.append(contentsOf: #","ownerRecordName":"#.utf8)
        RecordLineWriter.string(zoneID.ownerName, into: &out)
        out.append(contentsOf: #"},"fields":{"#.utf8)
        var first = true
        for key in fields.keys.sorted() {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            let value = fields[key]!
            RecordLineWriter.string(key, into: &out)
            out.append(contentsOf: #":{"value":"#.utf8)
            try self.value(value, into: &out, assetURL: assetURL)
            out.append(contentsOf: #","type":"#.utf8)
            RecordLineWriter.string(value.type.webServicesTag, into: &out)
            out.append(UInt8(ascii: "}"))
        }
        out.append(contentsOf: #"},"created":{"timestamp":"#.utf8)
        RecordLineWriter.integer(stored.createdAt, into: &out)
        out.append(contentsOf: #","userRecordName":"#.utf8)
        RecordLineWriter.string(stored.createdBy, into: &out)
        out.append(contentsOf: #"},"modified":{"timestamp":"#.utf8)
        RecordLineWriter.integer(stored.modifiedAt, into: &out)
        out.append(contentsOf: #","userRecordName":"#.utf8)
        RecordLineWriter.string(stored.modifiedBy, into: &out)
        out.append(UInt8(ascii: "}"))
        if let parent = stored.parent {
            out.append(contentsOf: #","parent":{"recordName":"#.utf8)
            RecordLineWriter.string(parent, into: &out)
            out.append(UInt8(ascii: "}"))
        }
        out.append(contentsOf: "}\n".utf8)
    }

    private static func value(_ value: FieldValue, into out: inout [UInt8], assetURL: (Asset) throws -> String?) throws {
        switch value {
        case .string(let text): RecordLineWriter.string(text, into: &out)
        case .int64(let number): RecordLineWriter.integer(number, into: &out)
        case .double(let number): RecordLineWriter.double(number, into: &out)
        case .timestamp(let date): RecordLineWriter.integer(FieldValue.milliseconds(date), into: &out)
        case .bytes(let data): RecordLineWriter.string(data.base64EncodedString(), into: &out)
        case .asset(let asset):
            out.append(contentsOf: #"{"fileChecksum":"#.utf8)
            RecordLineWriter.string(asset.fileChecksum, into: &out)
            out.append(contentsOf: #","size":"#.utf8)
            RecordLineWriter.integer(asset.size, into: &out)
            if let url = try assetURL(asset) {
                out.append(contentsOf: #","downloadURL":"#.utf8)
                RecordLineWriter.string(url, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .reference(let reference):
            out.append(contentsOf: #"{"recordName":"#.utf8)
            RecordLineWriter.string(reference.recordName, into: &out)
            out.append(contentsOf: #","action":"#.utf8)
            RecordLineWriter.string(reference.action.rawValue, into: &out)
            out.append(UInt8(ascii: "}"))
        case .location(let location):
            out.append(contentsOf: #"{"latitude":"#.utf8)
            RecordLineWriter.double(location.latitude, into: &out)
            out.append(contentsOf: #","longitude":"#.utf8)
            RecordLineWriter.double(location.longitude, into: &out)
            let optionals: [(String, Double?)] = [("altitude", location.altitude), ("horizontalAccuracy", location.horizontalAccuracy),
                                                  ("verticalAccuracy", location.verticalAccuracy), ("course", location.course), ("speed", location.speed)]
            for (key, item) in optionals {
                guard let item else { continue }
                out.append(contentsOf: ",\"\(key)\":".utf8)
                RecordLineWriter.double(item, into: &out)
            }
            if let time = location.timestamp {
                out.append(contentsOf: #","timestamp":"#.utf8)
                RecordLineWriter.integer(FieldValue.milliseconds(time), into: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .list(_, let items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                try self.value(item, into: &out, assetURL: assetURL)
            }
            out.append(UInt8(ascii: "]"))
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// A JSON string as `JSONWriter` quotes it.
    static func string(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        let plain = text.withUTF8 { bytes in
            guard !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if !plain { escaped(text, into: &out) }
        out.append(UInt8(ascii: "\""))
    }

    private static func escaped(_ text: String, into out: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "\\"))
            case 0x0A: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "n"))
            case 0x0D: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "r"))
            case 0x09: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "t"))
            case 0..<0x20:
                out.append(contentsOf: #"\u00"#.utf8)
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
    }

    static func integer(_ number: Int64, into out: inout [UInt8]) {
        if number >= 0, number < 10 {
            out.append(UInt8(ascii: "0") + UInt8(number))
            return
        }
        out.append(contentsOf: String(number).utf8)
    }

    /// A double as `JSONWriter` prints it: whole numbers below 1e15 as `N.0`, others in
    /// Swift's shortest exact form.
    static func double(_ number: Double, into out: inout [UInt8]) {
        if number.rounded() == number, abs(number) < 1e15 {
            if number == 0, number.sign == .minus { out.append(UInt8(ascii: "-")) }
            out.append(contentsOf: String(Int64(number)).utf8)
            out.append(contentsOf: ".0".utf8)
        } else {
            out.append(contentsOf: "\(number)".utf8)
        }
    }
}

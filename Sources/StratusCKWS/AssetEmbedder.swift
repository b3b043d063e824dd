import Foundation
import StratusCloud
import StratusModel

/// Carries asset content inside exported record JSON, as `stratus export` does: the first time
/// an asset appears, its value gains a `downloadURL` holding the bytes as a `data:` URL. A file
/// written this way reads back into any store (`stratus save --import`) with its assets, where
/// a bare `fileChecksum` names bytes only the exporting store holds.
public struct AssetEmbedder {
    /// The asset's bytes by checksum (nil when the store no longer holds them).
    public typealias Reader = (String) throws -> Data?

    private let read: Reader
    private var written: Set<String> = []

    public init(read: @escaping Reader) { self.read = read }

    /// The record as exports write it (`RecordJSON.encode`), with each asset's first appearance
    /// carrying its content.
    public mutating func encode(_ record: Record) throws -> JSONValue {
        guard case .object(var members) = RecordJSON.encode(record),
              let fieldsAt = members.firstIndex(where: { $0.0 == "fields" }),
              case .object(var fields) = members[fieldsAt].1 else { return RecordJSON.encode(record) }
        for index in fields.indices {
            guard let value = record.fields[fields[index].0], value.containsAsset,
                  case .object(var field) = fields[index].1,
                  let valueAt = field.firstIndex(where: { $0.0 == "value" }) else { continue }
            field[valueAt].1 = try embedded(value, field[valueAt].1)
            fields[index].1 = .object(field)
        }
        members[fieldsAt].1 = .object(fields)
        return .object(members)
    }

    private mutating func embedded(_ value: FieldValue, _ json: JSONValue) throws -> JSONValue {
        switch (value, json) {
        case (.asset(let asset), .object(var members)):
            if written.insert(asset.fileChecksum).inserted, let data = try read(asset.fileChecksum) {
                members.append(("downloadURL", .string("data:application/octet-stream;base64," + data.base64EncodedString())))
            }
            return .object(members)
        case (.list(_, let items), .array(let encoded)) where items.count == encoded.count:
            return .array(try zip(items, encoded).map { try embedded($0, $1) })
        default:
            return json
        }
    }
}

private extension FieldValue {
    var containsAsset: Bool {
        switch self {
        case .asset: return true
        case .list(_, let items): return items.contains { $0.containsAsset }
        default: return false
        }
    }
}

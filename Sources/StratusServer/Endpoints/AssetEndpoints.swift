import Foundation
import Hummingbird
import StratusEngine
import StratusModel
import StratusCloud
import StratusCKWS

/// The asset flow CloudKit Web Services uses: `assets/upload` hands out upload URLs, the client
/// POSTs each file's bytes to one and gets a `singleFile` dictionary back, which it puts in the
/// record's field with `records/modify`; fetched records carry a `downloadURL` this server
/// serves.
enum AssetEndpoints {
    /// `assets/upload`: an upload URL per requested field.
    static func upload(_ call: CKWSCall, tickets: AssetTickets, host: String) throws -> JSONValue {
        guard case .array(let items)? = call.body["tokens"] else {
            throw CKWSFailure.badRequest("tokens: missing; send {\"tokens\": [{\"recordName\", \"recordType\", \"fieldName\"}]}")
        }
        guard items.count <= 200 else { throw CKWSFailure.badRequest("tokens: \(items.count) tokens; a request takes at most 200") }
        return .object([("tokens", .array(try items.enumerated().map { index, item in
            guard let field = item["fieldName"]?.stringValue else { throw CKWSFailure.badRequest("tokens[\(index)].fieldName: missing") }
            let name = item["recordName"]?.stringValue ?? UUID().uuidString
            let ticket = tickets.issue(for: call.store)
            return .object([("recordName", .string(name)), ("fieldName", .string(field)),
                            ("url", .string("http://\(host)/assets/upload/\(ticket)"))])
        }))])
    }

    /// The bytes POSTed to an upload URL, stored; answers the `singleFile` dictionary.
    static func receive(_ data: Data, into store: Store) throws -> JSONValue {
        let asset = try store.putAsset(data)
        func random() -> String { Data((0..<24).map { _ in UInt8.random(in: 0...255) }).base64EncodedString() }
        return .object([("singleFile", .object([
            ("wrappingKey", .string(random())), ("fileChecksum", .string(asset.fileChecksum)),
            ("receipt", .string(random())), ("referenceChecksum", .string(random())), ("size", .integer(asset.size)),
        ]))])
    }
}

extension AssetEndpoints {
    /// `assets/rereference`: the asset values of the named records' asset fields, to put in
    /// another record's field with `records/modify` (content is kept while any record points
    /// at it). One entry per asset (an ASSET_LIST field gives one per element, with `index`);
    /// a record or field that cannot be read is a per-entry error.
    static func rereference(_ call: CKWSCall) throws -> JSONValue {
        guard case .array(let items)? = call.body["assets"] else {
            throw CKWSFailure.badRequest("assets: missing; send {\"assets\": [{\"recordName\", \"fieldName\"}]}")
        }
        guard items.count <= 200 else { throw CKWSFailure.badRequest("assets: \(items.count) entries; a request takes at most 200") }
        let zoneID = try call.zoneID(call.body["zoneID"])
        let requests = try items.enumerated().map { index, item -> (String, String) in
            guard let name = item["recordName"]?.stringValue, let field = item["fieldName"]?.stringValue else {
                throw CKWSFailure.badRequest("assets[\(index)]: name the recordName and fieldName")
            }
            return (name, field)
        }
        let fetched = try call.database.records(for: requests.map { RecordID(recordName: $0.0, zoneID: zoneID) })
        var assets: [JSONValue] = []
        for ((name, field), result) in zip(requests, fetched) {
            func failure(_ code: String, _ reason: String) -> JSONValue {
                ItemErrorJSON.encode(item: [("recordName", .string(name)), ("fieldName", .string(field))], serverErrorCode: code, reason: reason,
                                     layout: .codeFirst)
            }
            switch result.result {
            case .failure(let error):
                assets.append(failure(error.code.serverErrorCode, error.message))
            case .success(let record):
                guard let value = call.encode(record.trimmed(to: [field]))["fields"]?[field], let type = value["type"]?.stringValue,
                      type == "ASSET" || type == "ASSET_LIST", let content = value["value"] else {
                    assets.append(failure("BAD_REQUEST", "Field '\(field)' of record '\(name)' holds no asset"))
                    continue
                }
                func entry(_ asset: JSONValue, index: Int?) -> JSONValue {
                    guard case .object(var members) = asset else { return asset }
                    members.append(("recordName", .string(name)))
                    members.append(("fieldName", .string(field)))
                    if let index { members.append(("index", .integer(Int64(index)))) }
                    return .object(members)
                }
                if case .array(let list) = content {
                    assets += list.enumerated().map { entry($1, index: $0) }
                } else {
                    assets.append(entry(content, index: nil))
                }
            }
        }
        return .object([("assets", .array(assets))])
    }
}

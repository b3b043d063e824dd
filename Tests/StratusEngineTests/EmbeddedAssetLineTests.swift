import Foundation
import Testing
@testable import StratusEngine
import StratusModel
import StratusTestSupport
import StratusCloud

/// A line import looks through a record's fields for embedded asset content only when the line
/// could hold a `data:` URL; these check that the shortcut never skips one.
@Suite(.onEveryBackend) struct EmbeddedAssetLineTests {
    @Test func aLineMayEmbedAssetsWhenItHoldsADataURLOrAnyEscape() {
        func check(_ text: String) -> Bool { RecordLinesReader.mayEmbedAssets(ArraySlice(Array(text.utf8))) }
        #expect(!check(#"{"recordName":"a","fields":{"title":{"value":"data","type":"STRING"}}}"#))
        #expect(!check(""))
        #expect(check(#"{"downloadURL":"data:application/octet-stream;base64,AA=="}"#))
        // An escape could spell the scheme (`d\u0061ta:`): such a line is looked through.
        #expect(check(#"{"downloadURL":"d\u0061ta:application/octet-stream;base64,AA=="}"#))
        #expect(check(#"{"title":{"value":"a \"quoted\" word","type":"STRING"}}"#))
        // At the line's edges: the scheme as its last bytes or as the whole line; shorter lines.
        #expect(check("xx data:") && check("data:"))
        #expect(!check("data") && !check("d") && !check("ata:") && !check("xxdata"))
    }

    @Test func anAssetWhoseDataURLIsSpelledWithEscapesIsStillRestored() throws {
        let source = try TemporaryStore()
        let content = Data("cover ✈️".utf8)
        let asset = Asset(fileChecksum: SHA256.hexDigest(content), size: Int64(content.count))
        try source.privateDB.importRecords([Record(recordType: "Book", recordID: RecordID(recordName: "b"), fields: ["cover": .asset(asset)])],
                                           assets: [content])
        var exported = Data()
        try source.privateDB.exportRecords(write: { exported.append($0) })
        let plain = String(decoding: exported, as: UTF8.self)
        #expect(plain.contains(#""downloadURL":"data:"#))
        let escaped = plain.replacingOccurrences(of: #""downloadURL":"data:"#, with: #""downloadURL":"d\u0061ta:"#)
        #expect(escaped != plain)

        let folder = try TemporaryDirectory("stratus-escaped-asset")
        defer { folder.remove() }
        let handle = try FileHandle(forReadingFrom: try folder.write(Data(escaped.utf8), to: "records.jsonl"))
        defer { try? handle.close() }
        let target = try TemporaryStore()
        // Without its content the record would be refused: the asset must have been read.
        #expect(try target.privateDB.importRecords(lines: handle) == 1)
        #expect(try target.store.assetData(checksum: asset.fileChecksum) == content)
    }
}

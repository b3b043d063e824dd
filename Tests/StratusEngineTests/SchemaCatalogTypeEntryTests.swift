import Testing
import StratusModel
@testable import StratusEngine

/// The write path's per-type field table (`TypeEntry.fields`) must say what the schema and the
/// field ids say, however they are changed, or records would be indexed or checked wrongly.
@Suite struct SchemaCatalogTypeEntryTests {
    private func entry() -> SchemaCatalog.TypeEntry {
        let fields: [String: SchemaField] = [
            "title": SchemaField(name: "title", type: .string, indexes: [.queryable, .searchable]),
            "price": SchemaField(name: "price", type: .int64, indexes: [.sortable]),
            "notes": SchemaField(name: "notes", type: .string, indexes: []),
            "tags": SchemaField(name: "tags", type: .list(.string), indexes: [.queryable, .searchable]),
        ]
        return SchemaCatalog.TypeEntry(id: 3, schema: RecordTypeSchema(name: "Item", fields: fields),
                                       fieldIDs: ["title": 10, "price": 11, "notes": 12, "tags": 13])
    }

    @Test func eachFieldCarriesItsIDTypeAndWhatItIndexes() throws {
        let fields = entry().fields
        #expect(fields.count == 4)
        let title = try #require(fields["title"])
        #expect(title.id == 10 && title.type == .string && title.searchesText && title.indexesValues)
        let price = try #require(fields["price"])
        #expect(price.id == 11 && !price.searchesText && price.indexesValues)
        let notes = try #require(fields["notes"])
        #expect(!notes.searchesText && !notes.indexesValues)
        // A list of strings is searched too: its base type is a string.
        #expect(fields["tags"]?.searchesText == true)
    }

    @Test func followsTheSchemaAndTheIDsWhenEitherChanges() {
        var type = entry()
        type.schema.fields["rating"] = SchemaField(name: "rating", type: .double, indexes: [.sortable])
        // Declared but without a row id yet: not written.
        #expect(type.fields["rating"] == nil)
        type.fieldIDs["rating"] = 14
        #expect(type.fields["rating"]?.id == 14)
        // As the location migration narrows a copy of a type to some fields.
        type.schema.fields = type.schema.fields.filter { $0.key == "price" }
        #expect(Set(type.fields.keys) == ["price"])
    }

    @Test func declaresOnlyRecordsWhoseEveryFieldHasItsDeclaredType() {
        let type = entry()
        #expect(type.declares([:]))
        #expect(type.declares(["title": .string("a"), "price": .int64(3), "tags": .list(.string, [.string("x")])]))
        #expect(!type.declares(["title": .int64(1)]))
        #expect(!type.declares(["title": .string("a"), "unknown": .string("b")]))
        #expect(!type.declares(["tags": .string("not a list")]))
    }
}

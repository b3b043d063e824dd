import Foundation
import Testing
import StratusEngine
import StratusModel
@testable import StratusDashboard
import StratusCloud
import StratusTerminal

/// Editing the development schema from the Schema tab (a record type, a field, an index), and
/// importing a `.ckdb` file, each read back from the store.
@Suite struct SchemaEditingTests {
    func harness(prepare: @escaping (Store) throws -> Void = { _ in }) throws -> Harness {
        let harness = try Harness(records: Fixtures.trips(5), prepare: prepare)
        harness.press(.char("5"))
        return harness
    }

    /// Puts the cursor on the line of `type` (its heading, or its `field`).
    func select(_ harness: Harness, _ type: String, _ field: String? = nil) throws {
        let index = try #require(SchemaLines.lines(harness.state).firstIndex { $0.recordType == type && $0.field == field })
        harness.state.schemaTab.list.selected = index
    }

    func storedField(_ harness: Harness, _ type: String, _ field: String) throws -> FieldDeclaration? {
        try harness.store.exportSchema().recordType(named: type)?.fields.first { $0.name == field }
    }

    @Test func addsAFieldWithItsTypeThenAddsAndRemovesItsIndexes() throws {
        let harness = try harness()
        try select(harness, "Trip")
        harness.press(.char("a"))
        harness.type("notes")
        harness.press(.enter)
        guard case .picker(let types)? = harness.state.topModal else { Issue.record("no type picker: \(harness.state.status?.text ?? "")"); return }
        #expect(types.items.map(\.label).prefix(3) == ["STRING", "INT64", "DOUBLE"])
        #expect(types.items.map(\.label).contains("LIST<REFERENCE>"))
        harness.press(.enter)
        #expect(try storedField(harness, "Trip", "notes")?.type == DeclaredFieldType(.string))
        #expect(harness.state.status?.text == "Added field Trip.notes (STRING).")
        #expect(harness.state.schema(named: "Trip")?.fields["notes"]?.type == .string, "the tab and the Query tab's schema are reloaded")
        #expect(harness.screen().contains("notes"))

        try select(harness, "Trip", "notes")
        harness.press(.char("I"))
        guard case .picker(let options)? = harness.state.topModal else { Issue.record("no index picker: \(harness.state.status?.text ?? "")"); return }
        #expect(options.items.map(\.label) == ["add QUERYABLE", "add SEARCHABLE", "add SORTABLE"])
        harness.press(.enter)
        #expect(try storedField(harness, "Trip", "notes")?.indexes == [.queryable])
        harness.press(.char("I"), .down, .enter)
        #expect(try storedField(harness, "Trip", "notes")?.indexes == [.queryable, .searchable])
        #expect(harness.state.schema(named: "Trip")?.fields["notes"]?.indexes == [.queryable, .searchable])
        harness.press(.char("I"), .enter)
        #expect(try storedField(harness, "Trip", "notes")?.indexes == [.searchable])
        #expect(harness.state.status?.text == "Trip.notes is SEARCHABLE now.")
    }

    @Test func aNameCloudKitRefusesIsRefusedAsItIsTyped() throws {
        let harness = try harness()
        try select(harness, "Trip", "nights")
        harness.press(.char("a"))
        harness.type("2nd")
        guard case .textInput(let input)? = harness.state.topModal else { Issue.record("no name dialog"); return }
        #expect(input.error == "'2nd' is not a valid field name: use letters, digits and '_', starting with a letter.")
        harness.press(.enter)
        guard case .textInput? = harness.state.topModal else { Issue.record("the dialog took a refused name"); return }
        harness.press(.escape, .char("a"))
        harness.type("nights")
        guard case .textInput(let again)? = harness.state.topModal else { Issue.record("no name dialog"); return }
        #expect(again.error == "Trip already has a field nights.")
        harness.press(.escape, .char("n"))
        harness.type("_Secret")
        guard case .textInput(let type)? = harness.state.topModal else { Issue.record("no type name dialog"); return }
        #expect(type.error?.contains("is not a valid record type name") == true)
        #expect(try harness.store.exportSchema().recordType(named: "_Secret") == nil)
    }

    @Test func anIndexTheFieldTypeCannotTakeIsRefusedWithTheReason() throws {
        let harness = try harness()
        let before = try harness.store.exportSchema()
        try select(harness, "Trip", "nights")
        harness.press(.char("I"))
        guard case .picker(let options)? = harness.state.topModal else { Issue.record("no index picker"); return }
        #expect(options.items[1].label == "add SEARCHABLE")
        #expect(options.items[1].detail == "Only STRING fields can be SEARCHABLE; this one is INT64.")
        harness.press(.down, .enter)
        #expect(harness.state.status?.text == "Not added: Only STRING fields can be SEARCHABLE; this one is INT64.")
        #expect(try harness.store.exportSchema() == before)

        let list = DeclaredFieldType(.string, isList: true)
        #expect(SchemaChange.refusal(of: .sortable, on: list) == "A list cannot be SORTABLE; this one is LIST<STRING>.")
        #expect(SchemaChange.refusal(of: .queryable, on: list) == nil)
        func document(_ indexes: FieldIndexes) -> SchemaDocument {
            SchemaDocument(recordTypes: [RecordTypeDeclaration(name: "Trip", fields: [FieldDeclaration(name: "tags", type: list, indexes: indexes)])])
        }
        #expect(throws: CloudKitError(.invalidArguments, "A list cannot be SORTABLE; this one is LIST<STRING>.")) {
            try SchemaChange.setIndexes(recordType: "Trip", field: "tags", indexes: [.queryable, .sortable]).applied(to: document([.queryable]))
        }
        // What the field already has can go or stay, even an index CloudKit would not add.
        let kept = try SchemaChange.setIndexes(recordType: "Trip", field: "tags", indexes: [.sortable]).applied(to: document([.queryable, .sortable]))
        #expect(kept == document([.sortable]))
    }

    @Test func addsARecordType() throws {
        let harness = try harness()
        harness.press(.char("n"))
        harness.type("Note")
        harness.press(.enter)
        #expect(try harness.store.exportSchema().recordType(named: "Note") != nil)
        #expect(harness.state.status?.text == "Added record type Note.")
        #expect(SchemaLines.lines(harness.state).contains { $0.recordType == "Note" && $0.kind == .recordType })
    }

    @Test func aProductionStoreRefusesEveryEditAndSaysWhy() throws {
        let harness = try harness { store in try store.importSchema(store.exportSchema(), environment: .production) }
        let before = try harness.store.exportSchema()
        try select(harness, "Trip", "nights")
        for key in ["n", "a", "I"] {
            harness.press(.char(Character(key)))
            #expect(harness.state.topModal == nil, "\(key) opened a dialog")
            #expect(harness.state.status?.text == SchemaTab.productionRefusal)
        }
        // Even an edit that reached the runner is refused there.
        harness.handle([SchemaTab.edit(&harness.state, .addRecordType("Note"))])
        #expect(harness.state.status?.text.hasSuffix(SchemaTab.productionRefusal) == true)
        #expect(try harness.store.exportSchema() == before)
    }

    @Test func importsAFileAndSaysWhatChanged() throws {
        let harness = try harness()
        var document = try harness.store.exportSchema()
        document.roles = ["Editor"]
        document.recordTypes.append(RecordTypeDeclaration(name: "Note", fields: [FieldDeclaration(name: "body", type: DeclaredFieldType(.string), indexes: [.searchable])],
                                                          grants: [GrantDeclaration([.read, .write], to: "Editor")]))
        let path = SchemaTab.defaultSchemaExportPath(harness.state)
        try Data(document.text.utf8).write(to: URL(fileURLWithPath: path))
        harness.press(.char("i"), .enter)
        #expect(harness.state.status?.text == "Imported \((path as NSString).lastPathComponent): added types: Note; added fields: Note.body.")
        #expect(try harness.store.exportSchema().recordType(named: "Note")?.grants == [GrantDeclaration([.read, .write], to: "Editor")])
        let screen = harness.screen(width: 120, height: 60)
        #expect(screen.contains("Note"))
        #expect(screen.contains("READ, WRITE"), "the grant is on screen\n\(screen)")
        #expect(screen.contains("TO Editor"))
        #expect(screen.contains("CREATE ROLE"))
    }

    @Test func aFileWithAnErrorIsRefusedWithItsLineAndColumn() throws {
        let harness = try harness()
        let before = try harness.store.exportSchema()
        let path = SchemaTab.defaultSchemaExportPath(harness.state)
        try Data("DEFINE SCHEMA\n  RECORD TYPE Note (\n    body STRNG\n  );\n".utf8).write(to: URL(fileURLWithPath: path))
        harness.press(.char("i"), .enter)
        let text = harness.state.status?.text ?? ""
        #expect(text.contains("\(path):3:10: Encountered \"STRNG\" at line 3, column 10."), "\(text)")
        #expect(harness.state.status?.kind == .error)
        #expect(try harness.store.exportSchema() == before)
    }

    /// The line under the cursor, as (type, field).
    func selectedLine(_ harness: Harness) -> SchemaChange.Line? {
        let lines = SchemaLines.lines(harness.state)
        guard lines.indices.contains(harness.state.schemaTab.list.selected) else { return nil }
        let line = lines[harness.state.schemaTab.list.selected]
        return SchemaChange.Line(recordType: line.recordType, field: line.field)
    }

    @Test func everyTypeListsItsSixSystemFieldsAndTheirIndexesAreEditedLikeAFields() throws {
        let harness = try harness()
        let trip = SchemaLines.lines(harness.state).filter { $0.recordType == "Trip" && $0.kind == .systemField }.compactMap(\.field)
        #expect(Set(trip) == Set(SystemField.allCases.filter(\.isImplicitSchemaField).map(\.predicateKey)))
        let before = try storedField(harness, "Trip", "___recordID")?.indexes ?? []
        try select(harness, "Trip", "recordID")
        harness.press(.char("I"))
        guard case .picker(let options)? = harness.state.topModal else { Issue.record("no index picker: \(harness.state.status?.text ?? "")"); return }
        #expect(options.title == "Indexes of Trip.recordID (REFERENCE, system)")
        #expect(options.items[1].detail == "Only STRING fields can be SEARCHABLE; this one is REFERENCE.")
        harness.press(.enter)
        let after = try storedField(harness, "Trip", "___recordID")?.indexes ?? []
        #expect(after == before.symmetricDifference(.queryable), "QUERYABLE toggled on the system field in the store")
        #expect(harness.state.schema(named: "Trip")?.systemIndexes[.recordID] ?? [] == after, "the tab's schema is read again")
        #expect(harness.state.status?.text == (after.isEmpty ? "Trip.recordID has no indexes now." : "Trip.recordID is \(after) now."))
        #expect(selectedLine(harness) == SchemaChange.Line(recordType: "Trip", field: "recordID"), "the cursor stays on the field it changed")

        // SEARCHABLE on a REFERENCE is refused with the reason, and nothing is written.
        let document = try harness.store.exportSchema()
        harness.press(.char("I"), .down, .enter)
        #expect(harness.state.status?.text == "Not added: Only STRING fields can be SEARCHABLE; this one is REFERENCE.")
        #expect(try harness.store.exportSchema() == document)
    }

    @Test func theCursorGoesToTheTypeOrFieldJustAdded() throws {
        let harness = try harness()
        harness.press(.char("n"))
        harness.type("Zebra")
        harness.press(.enter)
        #expect(selectedLine(harness) == SchemaChange.Line(recordType: "Zebra", field: nil))
        try select(harness, "Trip")
        harness.press(.char("a"))
        harness.type("notes")
        harness.press(.enter, .enter)
        #expect(try storedField(harness, "Trip", "notes") != nil)
        #expect(selectedLine(harness) == SchemaChange.Line(recordType: "Trip", field: "notes"))
        let screen = harness.screen(width: 100, height: 24)
        #expect(screen.contains("notes"), "the new field is on screen where the cursor is\n\(screen)")
    }

    @Test func importingIntoProductionShowsWhatItDeploysAndAsksFirst() throws {
        let harness = try harness { store in try store.importSchema(store.exportSchema(), environment: .production) }
        let before = try harness.store.exportSchema()
        let path = SchemaTab.defaultSchemaExportPath(harness.state)
        let name = (path as NSString).lastPathComponent

        // The same schema: nothing to deploy, no dialog.
        try Data(before.text.utf8).write(to: URL(fileURLWithPath: path))
        harness.press(.char("i"), .enter)
        #expect(harness.state.topModal == nil)
        #expect(harness.state.status?.text == "\(name) declares the schema this production store already has: nothing to deploy.")

        var document = before
        document.recordTypes.append(RecordTypeDeclaration(name: "Note", fields: [FieldDeclaration(name: "body", type: DeclaredFieldType(.string))]))
        try Data(document.text.utf8).write(to: URL(fileURLWithPath: path))
        harness.press(.char("i"), .enter)
        guard case .confirm(let dialog)? = harness.state.topModal else { Issue.record("no deploy dialog: \(harness.state.status?.text ?? "")"); return }
        #expect(dialog.title == "Deploy to production")
        #expect(dialog.message.contains("added types: Note; added fields: Note.body"), "\(dialog.message)")
        #expect(try harness.store.exportSchema() == before, "nothing is written before y")
        harness.press(.char("n"))
        #expect(harness.state.status?.text == "Not deployed: the production schema is as it was.")
        #expect(try harness.store.exportSchema() == before)

        harness.press(.char("i"), .enter, .char("y"))
        #expect(try harness.store.exportSchema().recordType(named: "Note") != nil)
        #expect(harness.state.status?.text == "Imported \(name): added types: Note; added fields: Note.body.")

        // A file that drops a type holding records is refused before any dialog, with the reason.
        var dropped = try harness.store.exportSchema()
        dropped.recordTypes.removeAll { $0.name == "Trip" }
        try Data(dropped.text.utf8).write(to: URL(fileURLWithPath: path))
        harness.press(.char("i"), .enter)
        #expect(harness.state.topModal == nil)
        #expect(harness.state.status?.kind == .error)
        #expect(harness.state.status?.text.contains("Trip") == true, "\(harness.state.status?.text ?? "")")
        #expect(try harness.store.exportSchema().recordType(named: "Trip") != nil)
    }
}

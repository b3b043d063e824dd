import Foundation
import StratusServer
import StratusTestSupport
import Testing

/// `docs/ckws-openapi.yaml` describes exactly what the server serves.
@Suite struct OpenAPIDocumentTests {
    static let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/ckws-openapi.yaml")

    @Test func everyServedOperationIsDocumentedAndNothingElse() throws {
        let text = try String(contentsOf: Self.document, encoding: .utf8)
        var documented: Set<String> = []
        for line in text.components(separatedBy: "\n") where line.hasPrefix("  /database/1/{container}/{environment}/") && line.hasSuffix(":") {
            var path = String(line.dropFirst("  /database/1/{container}/{environment}/".count).dropLast())
            if path.hasPrefix("{database}/") { path = String(path.dropFirst("{database}/".count)) }
            documented.insert(path)
        }
        #expect(documented == servedCKWSOperations, "documented but not served: \(documented.subtracting(servedCKWSOperations)); served but not documented: \(servedCKWSOperations.subtracting(documented))")
    }

    /// The document is OpenAPI 3 that parses, and every `$ref` names a component that exists.
    @Test func theDocumentParsesAndItsReferencesResolve() throws {
        let outcome = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", """
            import sys, yaml
            doc = yaml.safe_load(open(sys.argv[1]))
            assert doc["openapi"].startswith("3."), "not OpenAPI 3"
            refs = []
            def walk(node):
                if isinstance(node, dict):
                    for key, value in node.items():
                        if key == "$ref": refs.append(value)
                        else: walk(value)
                elif isinstance(node, list):
                    for item in node: walk(item)
            walk(doc)
            missing = []
            for ref in refs:
                target = doc
                for part in ref.lstrip("#/").split("/"):
                    target = target.get(part) if isinstance(target, dict) else None
                if target is None: missing.append(ref)
            assert not missing, "unresolved: %s" % missing
            print(len(doc["paths"]), len(refs))
            """, Self.document.path])
        let printed = outcome.stdout
        let problem = outcome.stderr
        #expect(outcome.status == 0, "\(problem)")
        #expect(printed.split(separator: " ").first.flatMap { Int($0) } == servedCKWSOperations.count)
    }
}

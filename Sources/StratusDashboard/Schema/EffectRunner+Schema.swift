import Foundation
import StratusCloud
import StratusEngine
import StratusModel

/// The Schema tab's effects: loading the schema, diffing it with a file or store, exporting it,
/// editing it and importing a `.ckdb` file.
extension EffectRunner {
    /// Loads, diffs and exports the schema.
    func executeSchema(_ effect: SchemaEffect, post: @Sendable (DashboardMessage) -> Void) {
        switch effect {
        case .load(let job):
            post(.schema(.loaded(job: job, capture {
                let document = try? services.cloud.exportSchema()
                var grants: [String: [GrantDeclaration]] = [:]
                for type in document?.recordTypes ?? [] where !type.grants.isEmpty { grants[type.name] = type.grants }
                return SchemaSnapshot(types: try services.cloud.recordTypes(), environment: try services.cloud.environment(),
                                      roles: document?.roles ?? [], grants: grants, isReadOnly: services.cloud.localStore?.isReadOnly ?? false)
            })))

        case .diff(let job, let path):
            post(.schema(.diffed(job: job, capture {
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw CloudKitError(.invalidArguments, "Cannot read \(path).")
                }
                let file: SchemaDocument
                if data.prefix(16) == Data("SQLite format 3\0".utf8) {
                    // Another store (say the production one), read without opening it as one.
                    file = try localStore().exportSchema(ofStoreAt: path)
                } else {
                    do {
                        file = try SchemaDocument.parse(String(decoding: data, as: UTF8.self))
                    } catch let error as SchemaLanguageError {
                        throw CloudKitError(.invalidArguments, "\((path as NSString).lastPathComponent):\(error.line):\(error.column): \(error.message)")
                    }
                }
                return SchemaDiffSnapshot(path: path, changes: SchemaDiff(from: file, to: try services.cloud.exportSchema()).changes)
            })))

        case .export(let job, let path):
            post(.schema(.exported(job: job, capture {
                let text = try services.cloud.exportSchema().text
                do {
                    try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
                } catch {
                    throw CloudKitError(.invalidArguments, "Could not write \(path): \(error.localizedDescription)")
                }
                return path
            })))

        case .change(let job, let change):
            post(.schema(.changed(job: job, capture {
                let local = try localStore()
                if try services.cloud.environment() == .production { throw CloudKitError(.invalidArguments, SchemaTab.productionRefusal) }
                try local.importSchema(try change.applied(to: try services.cloud.exportSchema()))
                return change.done
            })))

        case .importFile(let job, let path):
            post(.schema(.changed(job: job, capture {
                let local = try localStore()
                let summary = try local.importSchema(try schemaFile(path)).summary
                let name = (path as NSString).lastPathComponent
                return summary.isEmpty ? "Imported \(name): the schema was already that." : "Imported \(name): " + summary.joined(separator: "; ") + "."
            })))

        case .previewImport(let job, let path):
            post(.schema(.previewed(job: job, path: path, capture {
                try localStore().importSchema(try schemaFile(path), dryRun: true).summary
            })))
        }
    }

    /// The `.ckdb` file at `path`, parsed; an error names the file, line and column.
    private func schemaFile(_ path: String) throws -> SchemaDocument {
        guard let data = FileManager.default.contents(atPath: path) else { throw CloudKitError(.invalidArguments, "Cannot read \(path).") }
        do {
            return try SchemaDocument.parse(String(decoding: data, as: UTF8.self))
        } catch {
            throw CloudKitError(.invalidArguments, "\(path):\(error.line):\(error.column): \(error.message)")
        }
    }
}

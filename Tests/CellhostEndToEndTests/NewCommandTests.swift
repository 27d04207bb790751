import CellIO
import CellProcess
import CellRuntime
import CellTestSupport
import CellValidation
import Glibc
import Testing

/// `cellhost new` as an author uses it: for each language the project it writes builds with its
/// one command (with no `cellhost` on PATH: the project finds the tool that wrote it), passes
/// `cellhost validate`, and shows up as cells in the embedded stream of `cellhost run --plugin`
/// and in its own `cells.jsonl`. The three templates draw the same row, so their frames are
/// identical byte for byte: a template that draws wrongly differs from the other two.
/// Serialized: the builds are long and the machine is shared.
@Suite(.serialized) struct NewCommandTests {
    static let name = "tally-row"
    static let typeIdentifier = "com.example.tally-row.cell"

    /// Runs `script` with /bin/sh inside `directory`, with PATH as inherited minus any folder
    /// holding a `cellhost` (so the project must find its tool itself), plus cargo's folder.
    static func shell(_ script: String, in directory: String, timeout: Double = 300) throws -> Shell.Outcome {
        let inherited = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        var folders = inherited.split(separator: ":").map(String.init).filter { access("\($0)/cellhost", X_OK) != 0 }
        if let cargo = RustPluginTests.cargo { folders.insert(String(cargo[..<cargo.lastIndex(of: "/")!]), at: 0) }
        return try Shell.run("unset CARGO_TARGET_DIR; \(script)", in: directory, seconds: timeout,
                             path: folders.joined(separator: ":"), environment: ["CARGO_TERM_COLOR": "never"])
    }

    struct Built {
        var folder: String
        var library: String
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Each language's project written by the built tool and built once with its one command.
    /// C goes into an existing empty folder, Swift and Rust into folders `new` creates.
    static let built: [PluginProject.Language: Result<Built, Failure>] = {
        var built: [PluginProject.Language: Result<Built, Failure>] = [:]
        for language in PluginProject.Language.allCases {
            do throws(Failure) {
                built[language] = .success(try build(language))
            } catch {
                built[language] = .failure(error)
            }
        }
        return built
    }()

    static func build(_ language: PluginProject.Language) throws(Failure) -> Built {
        let temporary = BuiltProducts.temporaryDirectory(prefix: "cellhost-new-\(language.rawValue)")
        let folder = language == .c ? temporary : temporary + "/project"
        let project = PluginProject(name: PluginProjectName(name)!, language: language)
        do {
            let written = try shell("'\(BuiltProducts.cellhost)' new \(name) --language \(language.rawValue) --dir '\(folder)'",
                                    in: temporary)
            guard written.status == 0 else { throw Failure(description: "cellhost new: \(written.error)") }
            guard written.output.contains("\n  \(project.buildCommand)\n") else {
                throw Failure(description: "the next steps name no build command:\n\(written.output)")
            }
            let build = try shell(project.buildCommand, in: folder, timeout: 1200)
            guard build.status == 0 else {
                throw Failure(description: "\(project.buildCommand) failed:\n\(build.output)\n\(build.error)")
            }
            // The project's own code compiles cleanly (the SDK's build lines are the SDK's).
            let warnings = (build.output + build.error).split(separator: "\n").filter { $0.contains("warning:") }
            guard warnings.isEmpty else { throw Failure(description: "warnings:\n" + warnings.joined(separator: "\n")) }
            return Built(folder: folder, library: "\(folder)/\(project.builtLibrary)")
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(description: "\(error)")
        }
    }

    static func updates(inTrace path: String) throws -> [CellUpdateTrace] {
        let text = try #require(readTextFile(path))
        let records = try text.split(separator: "\n").map { try TraceRecord.decode(line: String($0)) }
        if case .end(let end) = records.last { #expect(end.outcome == .ok) } else { Issue.record("no end record in \(path)") }
        return records.flatMap { record -> [CellUpdateTrace] in
            if case .event(let event) = record { event.updates } else { [] }
        }
    }

    @Test(arguments: PluginProject.Language.allCases)
    func theProjectBuildsValidatesAndRunsInTheEmbeddedStream(_ language: PluginProject.Language) throws {
        let built = try #require(try Self.built[language]?.get())
        let validation = try Self.shell("'\(BuiltProducts.cellhost)' validate '\(built.library)' --quiet", in: built.folder)
        #expect(validation.status == 0, "\(validation.output)\(validation.error)")

        let run = try Self.shell("'\(BuiltProducts.cellhost)' run --plugin '\(built.library)' --quiet --trace embedded.jsonl",
                                 in: built.folder)
        #expect(run.status == 0, "\(run.error)")
        let embedded = try Self.updates(inTrace: built.folder + "/embedded.jsonl")
        let cells = embedded.filter { $0.type == Self.typeIdentifier }
        #expect(!cells.isEmpty, "no update of \(Self.typeIdentifier) in the embedded stream")
        // The tint follows the state: the demo's selection restyles it.
        #expect(cells.contains { $0.stateAfter.contains("selected") && $0.changes.contains { $0.property == "tint" && $0.reason == .restyled } })

        let stream = try Self.shell("'\(BuiltProducts.cellhost)' run --plugin '\(built.library)' --events cells.jsonl --quiet --trace cells.trace.jsonl",
                                    in: built.folder)
        #expect(stream.status == 0, "\(stream.error)")
        let updates = try Self.updates(inTrace: built.folder + "/cells.trace.jsonl")
        // The action reached the plugin and changed the count; the tint the stream set stays locked.
        #expect(updates.contains { $0.cell == "first" && $0.changes.contains { $0.property == "count" && $0.new == "5" && $0.reason == .setByEvent } })
        #expect(updates.contains { $0.cell == "second" && $0.changes.contains { $0.property == "tint" && $0.reason == .locked } })
        #expect(!updates.contains { $0.cell == "second" && $0.changes.contains { $0.property == "tint" && $0.reason == .restyled } })
    }

    @Test func theThreeTemplatesDrawTheSameFrames() throws {
        var frameSets: [(PluginProject.Language, [String: [UInt8]])] = []
        for language in PluginProject.Language.allCases {
            let built = try #require(try Self.built[language]?.get())
            let run = try Self.shell("'\(BuiltProducts.cellhost)' run --plugin '\(built.library)' --quiet --frames frames",
                                     in: built.folder)
            #expect(run.status == 0, "\(run.error)")
            let names = directoryEntries(built.folder + "/frames") ?? []
            frameSets.append((language, Dictionary(uniqueKeysWithValues: names.map { ($0, readFileBytes(built.folder + "/frames/" + $0) ?? []) })))
        }
        let (first, reference) = frameSets[0]
        #expect(!reference.isEmpty)
        for (language, frames) in frameSets.dropFirst() {
            #expect(frames.keys.sorted() == reference.keys.sorted())
            for (name, bytes) in reference {
                #expect(frames[name] == bytes, "\(name) of the \(language.rawValue) project differs from \(first.rawValue)'s")
            }
        }
    }

    @Test func aFolderWithFilesIsRefusedAndLeftAlone() throws {
        let parent = BuiltProducts.temporaryDirectory(prefix: "cellhost-new-taken")
        let folder = parent + "/taken"
        #expect(mkdir(folder, 0o755) == 0)
        writeFile("mine\n", to: folder + "/Makefile")
        let outcome = try Self.shell("'\(BuiltProducts.cellhost)' new \(Self.name) --language c --dir '\(folder)'", in: parent)
        #expect(outcome.status == 5)
        #expect(outcome.output.isEmpty)
        #expect(outcome.error == "cellhost new: \(folder) already exists and is not empty; give a new folder with --dir, or empty this one\n")
        #expect(directoryEntries(folder) == ["Makefile"])
        #expect(readTextFile(folder + "/Makefile") == "mine\n")
        #expect(directoryEntries(parent) == ["taken"], "a staging folder was left behind")
    }

    @Test func aNameThatCannotBeAnIdentifierIsAUsageError() throws {
        let parent = BuiltProducts.temporaryDirectory(prefix: "cellhost-new-name")
        for name in ["9lives", "star rating", "-x", "naïve"] {
            let outcome = try Self.shell("'\(BuiltProducts.cellhost)' new '\(name)' --language rust", in: parent)
            #expect(outcome.status == 2, "\(name): \(outcome.error)")
        }
        #expect(directoryEntries(parent) == [])
    }

    @Test func helpShowsTheOneExitCodeTable() throws {
        let help = try Self.shell("'\(BuiltProducts.cellhost)' new --help", in: "/")
        let run = try Self.shell("'\(BuiltProducts.cellhost)' run --help", in: "/")
        #expect(help.status == 0)
        let start = try #require(run.output.range(of: "Exit codes (the same for every subcommand):"))
        let table = run.output[start.lowerBound...].prefix { _ in true }
        let end = table.range(of: "\n\n")?.lowerBound ?? table.endIndex
        #expect(help.output.contains(table[..<end]), "\(help.output)")
    }

    @Test func aNameGivesEveryLanguageItsOwnForm() throws {
        let name = try #require(PluginProjectName("starRating_v2"))
        #expect(name.words == ["star", "Rating", "v2"])
        #expect(name.upperCamel == "StarRatingV2")
        #expect(name.snake == "star_rating_v2")
        #expect(name.kebab == "star-rating-v2")
        #expect(name.title == "Star Rating V2")
        #expect(name.typeIdentifier == "com.example.star-rating-v2.cell")
        #expect(PluginProjectName("BadgeCell")?.swiftTypeName == "BadgeCell")
        #expect(PluginProjectName("Badge")?.swiftTypeName == "BadgeCell")
    }
}

import ArgumentParser
import CellValidation

/// `cellhost new NAME --language c|swift|rust`: writes a plugin project that builds with one
/// command, passes `validate` and runs in the embedded stream. The templates and the writing
/// (all or nothing, never into a folder with files) are `PluginProject`'s; this parses and prints.
struct NewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Write a plugin project in C, Swift or Rust that builds with one command.",
        discussion: """
            NAME is letters, digits, - and _, starting with a letter (star-rating, StarRating). \
            The project goes into --dir (default: NAME in the current folder), which must not \
            exist or be empty; nothing is written otherwise. It holds one configuration type \
            (a title, a tint, a count, an increment(by:) action, a tint that follows the state), \
            a README.md saying how to build, inspect, validate and run it, and cells.jsonl, a \
            stream that uses it. It depends on the SDK of the source tree this cellhost was built \
            from: the C header through `cellhost sdk --cflags`, CellHostSDK by .package(path:), \
            the cellhost-plugin crate by path. The one build command:

              c      make
              swift  swift build
              rust   cargo build --release --offline

            \(CellhostExitCode.table)
            """)

    @Argument(help: "The plugin's name: the library, the module or crate, and the type id com.example.<name>.cell.")
    var name: String

    @Option(help: ArgumentHelp("The language of the project: c, swift or rust.", valueName: "language"))
    var language: PluginProject.Language

    @Option(help: ArgumentHelp("The folder to write the project into (default: NAME).", valueName: "dir"))
    var dir: String?

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if PluginProjectName(name) == nil {
            throw ValidationError("NAME must be letters, digits, - and _, starting with a letter, at most 64 characters: \(name)")
        }
    }

    func run() throws {
        let project = PluginProject(name: PluginProjectName(name)!, language: language)
        let folder = dir ?? name
        do throws(PluginProjectError) {
            try project.write(into: folder)
        } catch {
            output.error("new", error.description)
            if case .sdkNotFound = error { throw CellhostExitCode.sdkNotFound.error }
            throw CellhostExitCode.outputNotWritten.error
        }
        output.result("""
            Wrote a \(language.displayName) plugin project into \(folder): type \(project.name.typeIdentifier).
            Next: build it, validate it, run it (see \(folder)/README.md):
              cd \(folder)
              \(project.buildCommand)
              \(project.tool) validate \(project.builtLibrary)
              \(project.tool) run --plugin \(project.builtLibrary)

            """)
    }
}

extension PluginProject.Language: ExpressibleByArgument {}

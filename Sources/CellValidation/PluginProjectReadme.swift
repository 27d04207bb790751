/// The README.md of a project `cellhost new` writes: what the plugin is, and the commands that
/// build, inspect, validate and run it, each as it works in the project folder right away.
enum PluginProjectReadme {
    /// `cells.jsonl`: a stream that sets the type's values, performs its action and changes
    /// its state, so every part of the type shows in one short run.
    static func exampleStream(for name: PluginProjectName) -> String {
        """
        {"scene": {"appearance": "insetGrouped", "viewport": {"width": 390, "height": 300}}}
        {"section": {"id": "main"}}
        {"item": {"id": "first", "type": "\(name.typeIdentifier)", "set": {"title": "Messages", "count": 3}}}
        {"item": {"id": "second", "type": "\(name.typeIdentifier)", "set": {"tint": "systemOrange"}}}
        {"cell": "first", "perform": {"increment": [2]}}
        {"cell": ["first", "second"], "selected": true}
        {"traits": {"style": "dark"}}

        """
    }

    static func text(for project: PluginProject) -> String {
        let name = project.name
        let tool = project.tool
        let library = project.builtLibrary
        let source = switch project.language {
        case .c: "`plugin.c`, written against `cellhost/plugin.h` alone; the `Makefile` builds it."
        case .swift: "`Sources/\(name.upperCamel)/\(name.swiftTypeName).swift`, written with `CellHostSDK`; "
            + "`Sources/\(name.upperCamel)Metadata/metadata.c` repeats its strings in the metadata section."
        case .rust: "`src/lib.rs`, written with the `cellhost-plugin` crate."
        }
        let dependency = switch project.language {
        case .c:
            """
            It compiles with `cc $(cellhost sdk --cflags) -shared -fPIC`, calling the cellhost that
            wrote this project while that file exists, else `cellhost` on `PATH`
            (`make CELLHOST=/path/to/cellhost` picks another):
            `\(project.toolPath)`.
            """
        case .swift:
            """
            `Package.swift` depends on `CellHostSDK` of the cellhost source tree that wrote this
            project, by path: `\(project.sdkRoot)`. The first build compiles the SDK too.
            """
        case .rust:
            """
            `Cargo.toml` depends on the `cellhost-plugin` crate of the cellhost source tree that
            wrote this project, by path: `\(project.sdkRoot)/SDK/Rust`. The crate has no
            dependencies of its own, so `--offline` builds it.
            """
        }
        return """
            # \(name.title)

            A cellhost plugin in \(project.language.displayName), written by `cellhost new`. Its one
            configuration type, `\(name.typeIdentifier)`, shows a title and a count in a badge of its tint; the
            action `increment(by:)` adds to the count; the tint follows the cell's state (blue,
            green when selected, grey when disabled, dimmed while highlighted) until a stream sets it.

            The code is in \(source)

            ## Build

                \(project.buildCommand)

            makes `\(library)`.

            \(dependency)

            ## Inspect, validate, run

                \(tool) inspect \(library)
                \(tool) inspect \(library) --no-load
                \(tool) validate \(library)
                \(tool) run --plugin \(library)

            `inspect` lists the type, its properties and its action; with `--no-load` it reads only
            the metadata section, running none of the library's code. `validate` runs the conformance
            suite (every check must pass; exit code 0). `run` without `--events` plays the embedded
            stream: built-in cells and one cell of every loaded plugin type, this one included,
            through the cell states, dark mode and a large text size; add `--out out` for the trace,
            the Chrome trace and PNG frames.

            `cells.jsonl` is a stream that sets values, calls the action and selects the cell:

                \(tool) run --plugin \(library) --events cells.jsonl --out out

            ## Next

            Change the ids `\(name.pluginIdentifier)` and `\(name.typeIdentifier)` to your own
            reverse-DNS names before you publish the plugin.

            """
    }
}

extension PluginProject.Language {
    /// The language's name in prose.
    public var displayName: String {
        switch self {
        case .c: "C"
        case .swift: "Swift"
        case .rust: "Rust"
        }
    }
}

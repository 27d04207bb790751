import ArgumentParser
import CellRender

/// `cellhost symbols`: every name the host accepts for a system colour, symbol image, font text
/// style and colour transformer. The lists are `HostSymbolNames`'s; this only prints them.
struct SymbolsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "symbols",
        abstract: "List the system colour, symbol image, font text style and colour transformer names the host accepts.",
        discussion: """
            A stream or a plugin may name any of these instead of spelling the value out: \
            {"set": {"tint": "systemOrange", "image": {"symbol": "star.fill"}, \
            "textProperties.font": "headline", "tintTransformer": "grayscale"}}. \
            --json prints one object with the keys colors, symbols, textStyles and transformers.

            \(CellhostExitCode.table)
            """)

    @Flag(help: "Print one JSON object, an array of names per kind.")
    var json = false

    @OptionGroup var output: OutputOptions

    func run() {
        output.result(json ? HostSymbolNames.host.json : HostSymbolNames.host.text)
    }
}

import CellIO
import CellKit

/// Every name the host accepts where a stream or a plugin names something instead of spelling
/// it out: system colours (`"tint": "systemOrange"`), symbol images (`{"symbol": "star.fill"}`),
/// font text styles (`"textProperties.font": "headline"`) and colour transformers (an `@T`
/// property set to `"grayscale"`). Read from the tables the host resolves names with, so the
/// list `cellhost symbols` prints and SDK/docs/symbols.md shows cannot name anything the host
/// refuses, nor leave out anything it accepts.
public struct HostSymbolNames: Sendable, Equatable {
    /// One kind of name: its key in the JSON output, its title in the text output, its names.
    public struct Kind: Sendable, Equatable {
        public let key: String
        public let title: String
        public let names: [String]
    }

    /// In the order the text output prints them; names sorted, except text styles, which keep
    /// the type ramp's order (largest first) as UIKit lists them.
    public let kinds: [Kind]

    /// The names the running host accepts.
    public static let host = HostSymbolNames(kinds: [
        Kind(key: "colors", title: "System colours", names: Color.named.keys.sorted()),
        Kind(key: "symbols", title: "Symbol images", names: SymbolCatalog.names),
        Kind(key: "textStyles", title: "Font text styles", names: TextStyle.allCases.map(\.rawValue)),
        Kind(key: "transformers", title: "Colour transformers", names: ColorTransformer.builtIn.keys.sorted()),
    ])

    /// One heading line per kind (`System colours (35)`), then its names one per line indented by
    /// two spaces, kinds separated by a blank line: a name per line so `grep` finds one.
    public var text: String {
        kinds.map { kind in
            "\(kind.title) (\(kind.names.count))\n" + kind.names.map { "  \($0)\n" }.joined()
        }.joined(separator: "\n")
    }

    /// One JSON object, a key per kind holding its names: `{"colors": […], "symbols": […], …}`.
    public var json: String {
        var out = "{"
        for (k, kind) in kinds.enumerated() {
            if k > 0 { out += ", " }
            JSON.writeString(kind.key, to: &out)
            out += ": ["
            for (n, name) in kind.names.enumerated() {
                if n > 0 { out += ", " }
                JSON.writeString(name, to: &out)
            }
            out += "]"
        }
        return out + "}\n"
    }
}

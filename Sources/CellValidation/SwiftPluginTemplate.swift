/// The Swift project of `cellhost new`: a package with one `.dynamic` library product that
/// depends on `CellHostSDK` through `.package(path:)` to the source tree the tool was built
/// from. A path dependency builds whatever flags the SDK's manifest sets, so `swift build`
/// works right after `new`.
enum SwiftPluginTemplate {
    static func files(for project: PluginProject) -> [PluginProject.File] {
        [
            .init(path: "Package.swift", text: manifest(project)),
            .init(path: "Sources/\(project.name.upperCamel)/\(project.name.swiftTypeName).swift", text: source(project.name)),
            .init(path: "Sources/\(project.name.upperCamel)Metadata/metadata.c", text: metadataSource(project.name)),
            // SwiftPM wants a C target's include folder, even empty.
            .init(path: "Sources/\(project.name.upperCamel)Metadata/include/.gitkeep", text: ""),
            .init(path: ".gitignore", text: "/.build\n/.swiftpm\n"),
        ]
    }

    /// SwiftPM names a path dependency after its folder.
    static func packageIdentity(of root: String) -> String {
        root.split(separator: "/").last.map { $0.lowercased() } ?? "cellhost"
    }

    static func manifest(_ project: PluginProject) -> String {
        let module = project.name.upperCamel
        return """
            // swift-tools-version: 6.1
            import PackageDescription

            // `swift build` makes .build/debug/lib\(module).so.
            let package = Package(
                name: "\(module)",
                products: [.library(name: "\(module)", type: .dynamic, targets: ["\(module)"])],
                // The cellhost source tree that generated this project, without its command-line tool.
                dependencies: [.package(path: "\(project.sdkRoot)", traits: [])],
                targets: [
                    .target(name: "\(module)", dependencies: [.product(name: "CellHostSDK", package: "\(packageIdentity(of: project.sdkRoot))"),
                                                        "\(module)Metadata"]),
                    // The plugin's metadata section, in C: Swift cannot place a string in an ELF section.
                    .target(name: "\(module)Metadata", dependencies: [.product(name: "CellHostSDK", package: "\(packageIdentity(of: project.sdkRoot))")]),
                ],
                swiftLanguageModes: [.v6]
            )

            """
    }

    /// What `cellhost inspect --no-load` reads without running the library: the strings the
    /// entry passes to `export`, in plugin.h's `.cellhost_metadata` section.
    static func metadataSource(_ name: PluginProjectName) -> String {
        """
        /* The strings the Swift entry passes to export(…), in an ELF section:
         * `cellhost inspect --no-load` reads them without running the library, and
         * `cellhost validate` checks that they agree. */
        #include "CellHostPluginABI.h"

        CELLHOST_METADATA("\(name.pluginIdentifier)", "\(name.title)", "0.1.0", "Example",
                          "A row with a title and a count badge, written in Swift.",
                          CELLHOST_METADATA_TYPES("\(name.typeIdentifier)"));

        """
    }

    static func source(_ name: PluginProjectName) -> String {
        let type = name.swiftTypeName
        return """
            import CellHostSDK

            /// \(name.title): a cellhost plugin in Swift, written by `cellhost new`.
            ///
            /// One configuration type, \(name.typeIdentifier): a title, a tint and a count, drawn
            /// as a row with the count in a badge of the tint. The action `increment(by:)` adds to
            /// the count. The tint follows the state (blue, green when selected, grey when
            /// disabled, dimmed while highlighted) until the tint is set, which locks it.
            struct \(type): PluginCell {
                typealias View = \(type)View

                static let typeIdentifier = "\(name.typeIdentifier)"
                static let displayName = "\(name.title)"
                /// `updated(for:)` restyles from the state alone.
                static let restyleIsPure = true
                static let properties: [CellProperty<\(type)>] = [
                    .string("title", \\.title),
                    .color("tint", \\.tint),
                    .int64("count", \\.count),
                ]
                static let actions: [CellAction<\(type)>] = [
                    .action("increment", argument: "by") { (cell: inout \(type), by: Int64) in
                        let (count, overflow) = cell.count.addingReportingOverflow(by)
                        guard by > 0, !overflow else {
                            Host.log(.warning, "increment(by: \\(by)) needs a positive step that keeps the count in range")
                            return false
                        }
                        cell.count = count
                        return true
                    },
                ]

                var title = "\(name.title)"
                var tint = \(type).tint(for: nil)
                var count: Int64 = 0

                init() {}

                /// What the tint is when the host names no such colour: a constant, never an
                /// earlier restyle's tint, as `restyleIsPure` promises.
                static let fallbackTint = cellhost_color(red: 0, green: 0.48, blue: 1, alpha: 1)

                static func tint(for state: PluginState?) -> cellhost_color {
                    let name = state?.isDisabled == true ? "systemGray" : state?.isSelected == true ? "systemGreen" : "systemBlue"
                    let tint = Host.systemColor(name, traits: state?.traits) ?? fallbackTint
                    return state?.isHighlighted == true ? tint.withAlpha(tint.alpha * 0.6) : tint
                }

                /// The SDK puts a set (locked) tint back afterwards.
                func updated(for state: PluginState) -> \(type) {
                    var cell = self
                    cell.tint = \(type).tint(for: state)
                    return cell
                }

                static func == (a: \(type), b: \(type)) -> Bool {
                    a.title == b.title && a.count == b.count && a.tint.red == b.tint.red && a.tint.green == b.tint.green
                        && a.tint.blue == b.tint.blue && a.tint.alpha == b.tint.alpha
                }
            }

            final class \(type)View: PluginCellView {
                /// Private storage: every access is in this file, so the compiler drops run-time
                /// exclusivity checks.
                private var shown: \(type)
                var configuration: \(type) {
                    get { shown }
                    set { shown = newValue }
                }

                init(configuration: \(type)) { shown = configuration }

                /// The badge: the count on a capsule of the tint.
                private func badge(_ context: DrawingContext) -> (text: String, font: cellhost_font, size: cellhost_size) {
                    let text = shown.count > 99 ? "99+" : String(shown.count)
                    let font = Host.font(CELLHOST_TEXT_STYLE_FOOTNOTE, traits: context.traits)
                    let measured = context.measure(text, font: font, width: nil, lines: 1).size
                    let height = measured.height + 4
                    return (text, font, cellhost_size(width: max(height, measured.width + 12), height: height))
                }

                private func titleHeight(_ context: DrawingContext, width: Double) -> Double {
                    context.measure(shown.title, font: Host.font(CELLHOST_TEXT_STYLE_BODY, traits: context.traits),
                                    width: max(0, width), lines: 1).size.height
                }

                func sizeThatFits(_ target: cellhost_size, context: DrawingContext) -> cellhost_size {
                    let margins = Host.layoutMargins(traits: context.traits)
                    let badge = badge(context).size
                    let width = target.width - margins.leading - margins.trailing - badge.width - 8
                    let content = max(titleHeight(context, width: width), badge.height)
                    return cellhost_size(width: target.width, height: margins.top + content + margins.bottom)
                }

                func draw(in bounds: cellhost_rect, context: DrawingContext, canvas: Canvas) {
                    let margins = Host.layoutMargins(traits: context.traits)
                    let badge = badge(context)
                    let width = bounds.width - margins.leading - margins.trailing - badge.size.width - 8
                    let height = titleHeight(context, width: width)
                    let label = Host.systemColor("label", traits: context.traits) ?? cellhost_color(red: 0, green: 0, blue: 0, alpha: 1)
                    canvas.text(shown.title, font: Host.font(CELLHOST_TEXT_STYLE_BODY, traits: context.traits), color: label,
                                frame: cellhost_rect(bounds.x + margins.leading, bounds.y + (bounds.height - height) / 2, width, height))

                    let frame = cellhost_rect(bounds.x + bounds.width - margins.trailing - badge.size.width,
                                              bounds.y + (bounds.height - badge.size.height) / 2, badge.size.width, badge.size.height)
                    canvas.roundedRect(frame, cornerRadius: badge.size.height / 2, shown.tint)
                    canvas.text(badge.text, font: badge.font, color: cellhost_color(red: 1, green: 1, blue: 1, alpha: 1),
                                frame: cellhost_rect(frame.x, frame.y + 2, frame.width, frame.height - 4), alignment: 2)
                }
            }

            @_cdecl("cellhost_plugin_entry")
            public func cellhostPluginEntry() -> UnsafeRawPointer {
                export(\(type).self, plugin: "\(name.pluginIdentifier)", name: "\(name.title)", version: "0.1.0",
                       vendor: "Example", description: "A row with a title and a count badge, written in Swift.")
            }

            """
    }
}

import CellIO
import CellProcess
import CellTestSupport
import Foundation
import Testing

/// A plugin package outside this repository depends on the SDK as its authors would: by URL and
/// version. SwiftPM refuses a versioned dependency whose used product's targets carry unsafe
/// flags, so this build fails the moment one comes back on `CellHostSDK`; and building the
/// plugin must compile the SDK alone, never the host's modules, and with `traits: []` must not
/// even fetch the command-line tool's dependency.
///
/// The package is published from this working tree (manifest and sources as they are now, not
/// the last commit) into a throwaway git repository tagged 1.0.0.
@Suite(.serialized) struct SwiftSDKByVersionTests {
    static let plugin = "StarCell"

    struct Outcome {
        var status: Int32?
        var log: String
    }

    /// `command` through /usr/bin/env in `directory`, its stdout and stderr kept for the failure message.
    func run(_ command: [String], in directory: String, seconds: Double = 120) throws -> Outcome {
        let result = try WorkerProcess(executable: "/usr/bin/env", arguments: ["-C", directory] + command)
            .run(limits: WorkerLimits(totalSeconds: seconds)) { _ in }
        let log = "$ \(command.joined(separator: " "))\n\(result.standardOutput)\(result.standardError)"
        guard case .exited(let code) = result.termination else { return Outcome(status: nil, log: "\(result.termination)\n\(log)") }
        return Outcome(status: code, log: log)
    }

    func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// This package's files (without build products or git data) committed in `directory` and tagged 1.0.0.
    func publish(into directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // What git tracks or would track: no build folders, whatever their names.
        let copy = try run(["sh", "-c", "git -C \"$0\" ls-files -co --exclude-standard -z | tar -C \"$0\" --null -T - -cf - | tar -xf -",
                            BuiltProducts.packageRoot], in: directory)
        try #require(copy.status == 0, "\(copy.log)")
        for step in [["git", "init", "-q"], ["git", "add", "-A"],
                     ["git", "-c", "user.name=cellhost tests", "-c", "user.email=tests@cellhost.invalid",
                      "commit", "-q", "-m", "cellhost 1.0.0"],
                     ["git", "tag", "1.0.0"]] {
            let outcome = try run(step, in: directory)
            try #require(outcome.status == 0, "\(outcome.log)")
        }
    }

    /// A plugin package that depends on the published SDK by version, with one small cell.
    func writeConsumer(into directory: String, sdkURL: String) throws {
        try write("""
            // swift-tools-version: 6.1
            import PackageDescription

            let package = Package(
                name: "\(Self.plugin)",
                products: [.library(name: "\(Self.plugin)", type: .dynamic, targets: ["\(Self.plugin)"])],
                dependencies: [.package(url: "\(sdkURL)", from: "1.0.0", traits: [])],
                targets: [
                    .target(name: "\(Self.plugin)", dependencies: [.product(name: "CellHostSDK", package: "cellhost"), "StarCellMetadata"]),
                    .target(name: "StarCellMetadata", dependencies: [.product(name: "CellHostSDK", package: "cellhost")]),
                ],
                swiftLanguageModes: [.v6]
            )

            """, to: "\(directory)/Package.swift")
        try write("""
            import CellHostSDK

            struct StarCell: PluginCell {
                typealias View = StarView
                static let typeIdentifier = "com.example.star"
                static let properties: [CellProperty<StarCell>] = [.bool("isStarred", \\.isStarred)]
                static let actions: [CellAction<StarCell>] = [.action("toggle") { $0.isStarred.toggle(); return true }]

                var isStarred = false
                var tint = cellhost_color(red: 0.5, green: 0.5, blue: 0.5, alpha: 1)

                func updated(for state: PluginState) -> StarCell {
                    var cell = self
                    cell.tint = Host.systemColor(state.isSelected ? "systemYellow" : "systemGray", traits: state.traits) ?? tint
                    return cell
                }

                static func == (a: StarCell, b: StarCell) -> Bool {
                    a.isStarred == b.isStarred && a.tint.red == b.tint.red && a.tint.green == b.tint.green
                        && a.tint.blue == b.tint.blue && a.tint.alpha == b.tint.alpha
                }
            }

            final class StarView: PluginCellView {
                private var shown: StarCell
                var configuration: StarCell {
                    get { shown }
                    set { shown = newValue }
                }
                init(configuration: StarCell) { shown = configuration }

                func sizeThatFits(_ target: cellhost_size, context: DrawingContext) -> cellhost_size {
                    cellhost_size(width: target.width, height: 44)
                }

                func draw(in bounds: cellhost_rect, context: DrawingContext, canvas: Canvas) {
                    canvas.symbol(shown.isStarred ? "star.fill" : "star",
                                  frame: cellhost_rect(bounds.x + 16, bounds.y + 10, 24, 24), pointSize: 17, shown.tint)
                }
            }

            @_cdecl("cellhost_plugin_entry")
            public func entry() -> UnsafeRawPointer {
                export(StarCell.self, plugin: "com.example.stars", name: "Stars", version: "1.0", vendor: "Example")
            }

            """, to: "\(directory)/Sources/\(Self.plugin)/\(Self.plugin).swift")
        // The metadata section, as SDK/docs/writing-in-swift.md shows it: a C file in a C target
        // (SwiftPM wants a C target's include folder to exist, even empty).
        try write("""
            #include "CellHostPluginABI.h"
            CELLHOST_METADATA("com.example.stars", "Stars", "1.0", "Example", "", CELLHOST_METADATA_TYPES("com.example.star"));

            """, to: "\(directory)/Sources/StarCellMetadata/metadata.c")
        try write("", to: "\(directory)/Sources/StarCellMetadata/include/.gitkeep")
    }

    @Test(.timeLimit(.minutes(10)))
    func aPluginPackageBuildsAgainstTheSDKByVersionAndPassesValidate() throws {
        let root = BuiltProducts.temporaryDirectory(prefix: "cellhost-sdk-by-version")
        let published = "\(root)/cellhost", consumer = "\(root)/consumer", scratch = "\(root)/scratch"
        try publish(into: published)
        try writeConsumer(into: consumer, sdkURL: "file://\(published)")

        // No shared cache: every run's repository is new, and a cache would keep each one.
        let build = try run(["swift", "build", "--scratch-path", scratch, "--disable-dependency-cache"], in: consumer, seconds: 540)
        try #require(build.status == 0, "the plugin package did not build against cellhost 1.0.0:\n\(build.log)")

        // Nothing but cellhost itself was fetched: the command-line tool's parser stays out.
        let resolved = try String(contentsOfFile: "\(consumer)/Package.resolved", encoding: .utf8)
        #expect(!resolved.contains("argument-parser"), "fetched for the plugin: \(resolved)")

        // The SDK and the plugin are the only Swift modules built: no host module, no ArgumentParser.
        let modules = try FileManager.default.contentsOfDirectory(atPath: "\(scratch)/debug/Modules")
            .filter { $0.hasSuffix(".swiftmodule") }
        #expect(Set(modules) == ["CellHostSDK.swiftmodule", "\(Self.plugin).swiftmodule"], "\(modules)")
        let hostObjects = FileManager.default.enumerator(atPath: "\(scratch)/debug")?
            .compactMap { $0 as? String }
            .filter { $0.hasSuffix(".o") && !$0.hasPrefix("CellHostSDK.build/") && !$0.hasPrefix("\(Self.plugin).build/")
                && !$0.hasPrefix("StarCellMetadata.build/") } ?? []
        #expect(hostObjects.isEmpty, "built for the plugin besides the SDK: \(hostObjects)")

        let library = "\(scratch)/debug/lib\(Self.plugin).so"
        let validate = try run([BuiltProducts.cellhost, "validate", library], in: consumer)
        #expect(validate.status == 0, "\(validate.log)")
        #expect(validate.log.contains("com.example.star"), "\(validate.log)")
        let noLoad = try run([BuiltProducts.cellhost, "inspect", library, "--no-load"], in: consumer)
        #expect(noLoad.status == 0 && noLoad.log.contains("com.example.stars  Stars 1.0 by Example"), "\(noLoad.log)")
        let metadataCheck = try run([BuiltProducts.cellhost, "validate", library, "--check", "metadata-section", "--json"], in: consumer)
        #expect(metadataCheck.status == 0 && metadataCheck.log.contains("\"outcome\":\"success\""), "\(metadataCheck.log)")

        if build.status == 0 && validate.status == 0 { try? FileManager.default.removeItem(atPath: root) }
    }
}

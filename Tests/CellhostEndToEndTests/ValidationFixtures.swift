import CellTestSupport
import Testing

/// The broken plugins in BrokenPlugins/, each built with plain `cc` as its author would.
enum ValidationFixtures {
    static let brokenPlugins = "\(BuiltProducts.packageRoot)/Tests/CellhostEndToEndTests/BrokenPlugins"

    static func temporaryDirectory() -> String { BuiltProducts.temporaryDirectory(prefix: "cellvalidation-test") }

    /// Builds BrokenPlugins/`name`.c with plain `cc -shared -fPIC -I SDK/include`.
    static func build(_ name: String, flags: String = "", compiler: String = "cc") throws -> String {
        try PluginCompiler.compile(file: "\(brokenPlugins)/\(name).c", name: name, into: temporaryDirectory(), extraFlags: flags,
                                   compiler: compiler)
    }
}

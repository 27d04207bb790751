// swift-tools-version: 6.1
import PackageDescription

/// cellhost: UIKit's modern cell configuration model on Linux, open to plugins, rendered offscreen.
/// Dependencies point one way: cellhost → CellRuntime → CellPlugins, CellRender → CellKit;
/// CellIO (JSON, files, the console) is a leaf that every layer may use.
/// No target takes unsafe flags: SwiftPM refuses them in any product a versioned dependent uses.
/// Hot class stored properties skip the run-time exclusivity check with `@exclusivity(unchecked)`.
let package = Package(
    name: "cellhost",
    products: [
        .executable(name: "cellhost", targets: ["cellhost"]),
        .executable(name: "cellhost-bench", targets: ["cellhost-bench"]),
        .library(name: "CellKit", targets: ["CellKit"]),
        .library(name: "CellRuntime", targets: ["CellRuntime"]),
        .library(name: "CellRender", targets: ["CellRender"]),
        .library(name: "CellPlugins", targets: ["CellPlugins"]),
        .library(name: "CellValidation", targets: ["CellValidation"]),
        // Sample plugins, built as loadable .so files (libProgressMeter.so).
        .library(name: "ProgressMeter", type: .dynamic, targets: ["ProgressMeter"]),
        .library(name: "BadgeCell", type: .dynamic, targets: ["BadgeCell"]),
        // Write a plugin in Swift: C only through plugin.h, no CellKit in the plugin.
        .library(name: "CellHostSDK", targets: ["CellHostSDK"]),
    ],
    /// A plugin package depends on cellhost with `traits: []`: the command-line tool (the only
    /// user of swift-argument-parser) is then off, so SwiftPM neither fetches nor builds the parser
    /// for a plugin. Building this package itself keeps the default, with the tool.
    traits: [
        .trait(name: "CommandLineTool", description: "The cellhost command-line tool and its argument parser."),
        .default(enabledTraits: ["CommandLineTool"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // The HTTP server of `cellhost preview`; the command-line tool alone uses it.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // MARK: Model — pure Swift, no C library.
        .target(name: "CellKit"),
        .testTarget(name: "CellKitTests", dependencies: ["CellKit"]),

        // MARK: Isolation — worker processes with limits, shared by inspect, run and validate.
        .target(name: "CellProcess", dependencies: ["CWorkerProcess"]),
        // The worker sandbox's kernel side (Landlock, the seccomp filter, limits, handlers) and
        // the supervisor's interrupt handling: C interfaces and signal handlers.
        .target(name: "CWorkerProcess", dependencies: ["CSeccomp"]),
        .systemLibrary(name: "CSeccomp", path: "Sources/CSeccomp", pkgConfig: "libseccomp"),
        .testTarget(name: "CellProcessTests", dependencies: ["CellProcess"]),

        // MARK: Input and output — JSON values, atomic files, the console, line reading.
        .target(name: "CellIO", dependencies: ["CFileExchange"]),
        .testTarget(name: "CellIOTests", dependencies: ["CellIO"]),
        // Linux's atomic exchange of two paths, which replaced files are swapped out with.
        .target(name: "CFileExchange"),

        // MARK: Runtime — event streams, the engine, traces, isolation.
        .target(name: "CellRuntime", dependencies: ["CellIO", "CellKit", "CellRender", "CellPlugins", "CellProcess"]),
        .testTarget(name: "CellRuntimeTests", dependencies: ["CellRuntime", "CellIO", "CellKit", "CellRender", "CellProcess", "CellTestSupport", "ProgressMeter"]),

        // MARK: C libraries the compositor links (one system-library target each).
        .systemLibrary(name: "CPixman", path: "Sources/CPixman", pkgConfig: "pixman-1"),
        .systemLibrary(name: "CHarfBuzz", path: "Sources/CHarfBuzz", pkgConfig: "harfbuzz"),
        .systemLibrary(name: "CFreeType", path: "Sources/CFreeType", pkgConfig: "freetype2"),
        .systemLibrary(name: "CFontconfig", path: "Sources/CFontconfig", pkgConfig: "fontconfig"),
        .systemLibrary(name: "CPNG", path: "Sources/CPNG", pkgConfig: "libpng"),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib"),

        // The PNG frame encoder's deflate: strips deflated independently, matches to the left and above.
        .target(name: "CPNGStripDeflate", dependencies: ["CZlib"]),

        // MARK: The offscreen compositor — X11-free.
        .target(name: "CellRender",
                dependencies: ["CellIO", "CellKit", "CPixman", "CHarfBuzz", "CFreeType", "CFontconfig", "CPNG", "CPNGStripDeflate"]),
        .testTarget(name: "CellRenderTests", dependencies: ["CellRender", "CellKit", "CPNGStripDeflate", "CZlib", "CellTestSupport"],
                    exclude: ["Goldens"]),

        // MARK: Plugins — the C ABI (SDK/include/cellhost/plugin.h), the loader, libffi.
        // The host's side of the ABI: layout checks and the loader's memory probe, over the SDK's module.
        .target(name: "CCellHostABI", dependencies: ["CellHostPluginABI"]),
        .systemLibrary(name: "CFFI", path: "Sources/CFFI", pkgConfig: "libffi"),
        .target(name: "CellPlugins", dependencies: ["CellKit", "CCellHostABI", "CFFI"]),
        .testTarget(name: "CellPluginsTests", dependencies: ["CellPlugins", "CellKit", "CellProcess", "CellIO", "CellRuntime", "CellTestSupport",
                                                            "ProgressMeter"]),
        // MARK: Validation — the conformance suite behind `cellhost validate`, and the plugin
        // inspection (a load in a child process) behind `cellhost inspect`.
        .target(name: "CellValidation", dependencies: ["CellIO", "CellPlugins", "CellProcess", "CellKit", "CCellHostABI"]),
        .testTarget(name: "CellValidationTests", dependencies: ["CellValidation", "CellIO", "CellRuntime", "CellKit", "ProgressMeter",
                                                               "CellTestSupport"]),

        // A sample plugin in C, against plugin.h alone.
        .target(name: "ProgressMeter", path: "Plugins/ProgressMeter",
                cSettings: [.headerSearchPath("../../SDK/include")]),
        // MARK: The SDK a plugin package depends on by version: plugin.h as a C module and the
        // Swift layer over it. No unsafe flags (SwiftPM refuses them in a versioned dependency)
        // and nothing of the host, so building a plugin builds these two targets alone.
        .target(name: "CellHostPluginABI", path: "SDK/CellHostPluginABI"),
        .target(name: "CellHostSDK", dependencies: ["CellHostPluginABI"], path: "SDK/Swift"),
        .testTarget(name: "CellHostSDKTests", dependencies: ["CellHostSDK"]),
        // A sample plugin in Swift, through the SDK.
        .target(name: "BadgeCell", dependencies: ["CellHostSDK", "BadgeCellMetadata"], path: "Plugins/BadgeCell"),
        // Its metadata section (CELLHOST_METADATA), in C: Swift cannot place a string in a section.
        .target(name: "BadgeCellMetadata", dependencies: ["CellHostSDK"], path: "Plugins/BadgeCellMetadata"),

        // MARK: Snapshot tests — `cellhost test`: streams' named captures against references.
        .target(name: "CellSnapshots", dependencies: ["CellIO", "CellRuntime", "CellRender"]),
        .testTarget(name: "CellSnapshotsTests", dependencies: ["CellSnapshots", "CellRuntime", "CellRender", "CellIO"]),

        // MARK: Looking at a run — report.html from the trace records, and the live preview server.
        .target(name: "CellReport", dependencies: ["CellIO", "CellRuntime"]),
        .testTarget(name: "CellReportTests", dependencies: ["CellReport", "CellRuntime", "CellIO"]),
        .target(name: "CellPreview", dependencies: [
            "CellIO", "CellRuntime", "CellReport",
            .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["CommandLineTool"])),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["CommandLineTool"])),
            .product(name: "Logging", package: "swift-log", condition: .when(traits: ["CommandLineTool"])),
        ]),

        // MARK: The command-line tool: parses, calls the libraries above, prints.
        .executableTarget(name: "cellhost", dependencies: [
            "CellIO", "CellRuntime", "CellValidation", "CellSnapshots", "CellReport",
            .target(name: "CellPreview", condition: .when(traits: ["CommandLineTool"])),
            .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["CommandLineTool"])),
        ]),

        // MARK: Performance — each figure of BENCHMARKS.md measured against its reference.
        .executableTarget(name: "cellhost-bench", dependencies: [
            "CellIO", "CellRuntime", "CellKit", "CellPlugins", "CellRender", "CPixman", "CFFI", "CellSnapshots",
            "CZlib", "CPNGStripDeflate",
        ]),

        // MARK: Tests shared by every test target, and the end-to-end tests.
        // Where the built products are, a C compiler for test plugins, golden-image comparison.
        .target(name: "CellTestSupport", dependencies: ["CellIO", "CellProcess", "CellRender"], path: "Tests/CellTestSupport"),
        // The only tests that run the built executables, as a user does: `cellhost run`, `inspect`
        // and `validate` (whose checks run in the tool's worker), linkage, and the benchmark's output.
        .testTarget(name: "CellhostEndToEndTests",
                    dependencies: ["cellhost", "cellhost-bench", "CellTestSupport", "CellValidation", "CellRuntime", "CellSnapshots",
                                   "CellProcess", "CellKit", "CellIO", "ProgressMeter"],
                    exclude: ["BrokenPlugins", "HostilePlugins"]),
    ],
    swiftLanguageModes: [.v6]
)

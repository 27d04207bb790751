import ArgumentParser
import CellIO
import CellValidation

/// `cellhost sdk`: where the plugin SDK for C is, as compiler flags (as `llvm-config --cflags`
/// prints them) or as a pkg-config folder, so a plugin outside this repository builds from any
/// folder. Finding the SDK and writing the .pc file are `PluginSDK`'s; this only prints.
struct SDKCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sdk",
        abstract: "Print the compiler flags and paths that build a C plugin against plugin.h from any folder.",
        discussion: """
              cc $(cellhost sdk --cflags) -shared -fPIC foo.c -o libfoo.so
              export PKG_CONFIG_PATH=$(cellhost sdk --pkg-config-path)
              cc $(pkg-config --cflags cellhost-plugin) -shared -fPIC foo.c -o libfoo.so

            An installed cellhost (<prefix>/bin/cellhost) uses <prefix>/include and \
            <prefix>/lib/pkgconfig (write the .pc file there with --write-pc); a cellhost built \
            with SwiftPM uses SDK/include and SDK/pkgconfig of the source tree it was built from. \
            Without an option, prints all of it.

            \(CellhostExitCode.table)
            """)

    @Flag(help: "Print the C compiler flags: -I and the folder holding cellhost/plugin.h.")
    var cflags = false

    @Flag(name: .customLong("include-dir"), help: "Print the folder holding cellhost/plugin.h.")
    var includeDirectory = false

    @Flag(name: .customLong("pkg-config-path"), help: "Print the folder holding cellhost-plugin.pc, for PKG_CONFIG_PATH.")
    var pkgConfigPath = false

    @Option(name: .customLong("write-pc"),
            help: ArgumentHelp("Write cellhost-plugin.pc naming these headers into this folder.", valueName: "dir"))
    var writePkgConfigDirectory: String?

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if [cflags, includeDirectory, pkgConfigPath, writePkgConfigDirectory != nil].filter({ $0 }).count > 1 {
            throw ValidationError("give at most one of --cflags, --include-dir, --pkg-config-path, --write-pc")
        }
    }

    func run() throws {
        let sdk = try found { () throws(PluginSDKError) in try PluginSDK.locate() }
        if cflags {
            output.result(sdk.compilerFlags + "\n")
        } else if includeDirectory {
            output.result(sdk.includeDirectory + "\n")
        } else if pkgConfigPath {
            output.result(try found { () throws(PluginSDKError) in try sdk.existingPkgConfigDirectory() } + "\n")
        } else if let directory = writePkgConfigDirectory {
            do throws(SinkError) {
                output.note("wrote: \(try sdk.writePkgConfigFile(into: directory))\n")
            } catch {
                output.error("sdk", error.description)
                throw CellhostExitCode.outputNotWritten.error
            }
        } else {
            output.result(summary(sdk))
        }
    }

    /// `lookUp`'s answer, or its sentence on stderr and `sdkNotFound`.
    private func found<T>(_ lookUp: () throws(PluginSDKError) -> T) throws -> T {
        do throws(PluginSDKError) {
            return try lookUp()
        } catch {
            output.error("sdk", error.description)
            throw CellhostExitCode.sdkNotFound.error
        }
    }

    private func summary(_ sdk: PluginSDK) -> String {
        let origin = switch sdk.layout {
        case .installed(let prefix): "installed in \(prefix)"
        case .sourceTree(let root): "in the source tree cellhost was built from, \(root)"
        }
        let pkgConfig = (try? sdk.existingPkgConfigDirectory()).map { "\($0)/\(PluginSDK.pkgConfigFileName)" }
            ?? "none yet (cellhost sdk --write-pc \(sdk.pkgConfigDirectory))"
        return """
            Plugin SDK for C (plugin ABI \(CellhostVersion.pluginABI)), \(origin)
              header      \(sdk.headerPath)
              cflags      \(sdk.compilerFlags)
              pkg-config  \(pkgConfig)
            Build a plugin from any folder:
              cc $(cellhost sdk --cflags) -shared -fPIC foo.c -o libfoo.so

            """
    }
}

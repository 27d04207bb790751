import CellIO
import CellProcess
import CellTestSupport
import CellValidation
import Glibc
import Testing

/// A C plugin author outside this repository, with `cellhost` on PATH: `cellhost sdk` gives the
/// compiler flags and the pkg-config folder from any folder, CELLHOST_EXPORT exports the entry,
/// and plugin.h refuses pre-C99 C with a sentence that says so. Every command runs through
/// /bin/sh in a fresh folder, as the author types it.
@Suite struct CPluginSDKTests {
    static let includeDirectory = "\(BuiltProducts.packageRoot)/SDK/include"

    /// Runs `script` inside `directory` with the built `cellhost` first on PATH.
    func shell(_ script: String, in directory: String) throws -> Shell.Outcome { try Shell.run(script, in: directory) }

    /// A fresh folder outside the repository holding plugin.c: the validation suite's control
    /// plugin (every check passes), whose entry is marked CELLHOST_EXPORT, with the two headers
    /// it is written in.
    func authorFolder() -> String {
        let directory = BuiltProducts.temporaryDirectory(prefix: "cellhost-c-author")
        let plugins = ValidationFixtures.brokenPlugins
        for (source, target) in [("good.c", "plugin.c"), ("base.h", "base.h"), ("tables.h", "tables.h")] {
            writeFile(readTextFile("\(plugins)/\(source)")!, to: "\(directory)/\(target)")
        }
        return directory
    }

    @Test func aPluginBuiltWithSDKCflagsFromAnotherFolderPassesValidate() throws {
        let folder = authorFolder()
        let build = try shell("cc $(cellhost sdk --cflags) -shared -fPIC plugin.c -o libx.so", in: folder)
        #expect(build.status == 0, "\(build.error)")
        let validation = try shell("cellhost validate ./libx.so --quiet", in: folder)
        #expect(validation.status == 0, "\(validation.output)\(validation.error)")
    }

    @Test func cflagsNameTheHeaderFolderAbsolutelyAndNothingElse() throws {
        let outcome = try shell("cellhost sdk --cflags", in: "/")
        #expect(outcome.status == 0, "\(outcome.error)")
        #expect(outcome.output == "-I\(Self.includeDirectory)\n")
        #expect(access("\(Self.includeDirectory)/cellhost/plugin.h", R_OK) == 0)
    }

    /// Under -fvisibility=hidden only CELLHOST_EXPORT keeps the entry visible: the plugin loads,
    /// and the same source with the macro defined away does not.
    @Test func cellhostExportKeepsTheEntryExportedUnderHiddenVisibility() throws {
        let folder = authorFolder()
        let flags = "$(cellhost sdk --cflags) -fvisibility=hidden -shared -fPIC plugin.c"
        #expect(try shell("cc \(flags) -o libexported.so", in: folder).status == 0)
        #expect(try shell("cc \(flags) -DCELLHOST_EXPORT= -o libhidden.so", in: folder).status == 0)
        let exported = try shell("cellhost inspect ./libexported.so", in: folder)
        #expect(exported.status == 0, "\(exported.error)")
        let hidden = try shell("cellhost inspect ./libhidden.so", in: folder)
        #expect(hidden.status == 3)
        #expect(hidden.error == "cellhost inspect: ./libhidden.so: does not export the entry symbol cellhost_plugin_entry\n")
    }

    @Test func pkgConfigFindsTheHeadersThroughTheToolsFolder() throws {
        let folder = authorFolder()
        let flags = try shell("PKG_CONFIG_PATH=$(cellhost sdk --pkg-config-path) pkg-config --cflags cellhost-plugin", in: folder)
        #expect(flags.status == 0, "\(flags.error)")
        let include = try #require(flags.output.split(separator: " ").first { $0.hasPrefix("-I") })
        #expect(Self.realPath(String(include.dropFirst(2))) == Self.realPath(Self.includeDirectory), "\(flags.output)")

        let version = try shell("PKG_CONFIG_PATH=$(cellhost sdk --pkg-config-path) pkg-config --modversion cellhost-plugin", in: folder)
        #expect(version.output == CellhostVersion.pluginABI + "\n")
        let build = try shell("export PKG_CONFIG_PATH=$(cellhost sdk --pkg-config-path) && "
                              + "cc $(pkg-config --cflags cellhost-plugin) -shared -fPIC plugin.c -o libx.so && cellhost inspect ./libx.so",
                              in: folder)
        #expect(build.status == 0, "\(build.error)")
    }

    /// The copy in SDK/pkgconfig is what `--write-pc` writes with an include folder relative to
    /// itself, so the two cannot drift (nor the version from the ABI).
    @Test func theCheckedInPkgConfigFileIsTheGeneratedOne() throws {
        let checkedIn = readTextFile("\(BuiltProducts.packageRoot)/SDK/pkgconfig/\(PluginSDK.pkgConfigFileName)")
        #expect(checkedIn == PluginSDK.pkgConfigFile(includeDirectory: PluginSDK.sourceTreeIncludeDirectory))
    }

    @Test func writePCWritesAFileNamingTheHeaderFolderAbsolutely() throws {
        let folder = BuiltProducts.temporaryDirectory(prefix: "cellhost-pc")
        let write = try shell("cellhost sdk --write-pc lib/pkgconfig", in: folder)
        #expect(write.status == 0, "\(write.error)")
        #expect(write.error == "wrote: lib/pkgconfig/cellhost-plugin.pc\n")
        let flags = try shell("PKG_CONFIG_PATH=\(folder)/lib/pkgconfig pkg-config --cflags cellhost-plugin", in: "/")
        #expect(flags.output.trimmingSuffixSpaces == "-I\(Self.includeDirectory)")
    }

    /// An installed tool answers with the headers installed beside it, not the source tree.
    @Test func anInstalledToolUsesItsPrefix() throws {
        let prefix = BuiltProducts.temporaryDirectory(prefix: "cellhost-prefix")
        let setUp = try shell("mkdir -p bin include/cellhost lib/pkgconfig && cp '\(BuiltProducts.cellhost)' bin/ && "
                              + "cp '\(Self.includeDirectory)/cellhost/plugin.h' include/cellhost/ && "
                              + "bin/cellhost sdk --write-pc lib/pkgconfig --quiet", in: prefix)
        #expect(setUp.status == 0, "\(setUp.error)")
        let cflags = try shell("'\(prefix)/bin/cellhost' sdk --cflags", in: "/")
        #expect(cflags.output == "-I\(prefix)/include\n", "\(cflags.error)")
        let pkgConfig = try shell("'\(prefix)/bin/cellhost' sdk --pkg-config-path", in: "/")
        #expect(pkgConfig.output == "\(prefix)/lib/pkgconfig\n", "\(pkgConfig.error)")
        let folder = authorFolder()
        let build = try shell("cc $('\(prefix)/bin/cellhost' sdk --cflags) -shared -fPIC plugin.c -o libx.so", in: folder)
        #expect(build.status == 0, "\(build.error)")
    }

    @Test func theHeaderRefusesC89WithTheReason() throws {
        let folder = authorFolder()
        let outcome = try shell("cc $(cellhost sdk --cflags) -std=c89 -c plugin.c -o plugin.o", in: folder)
        #expect(outcome.status != 0)
        #expect(outcome.error.contains("cellhost/plugin.h needs C99 or later"), "\(outcome.error)")
    }

    @Test func sdkAloneSummarisesAndOptionsExcludeEachOther() throws {
        let summary = try shell("cellhost sdk", in: "/")
        #expect(summary.status == 0, "\(summary.error)")
        #expect(summary.output.contains("header      \(Self.includeDirectory)/cellhost/plugin.h\n"), "\(summary.output)")
        #expect(summary.output.contains("cc $(cellhost sdk --cflags) -shared -fPIC foo.c -o libfoo.so"))
        let both = try shell("cellhost sdk --cflags --pkg-config-path", in: "/")
        #expect(both.status == 2)
        #expect(both.output.isEmpty)
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

private extension String {
    var trimmingSuffixSpaces: String {
        var text = self
        while text.last == " " || text.last == "\n" { text.removeLast() }
        return text
    }
}

import CCellHostABI
import CellIO
import CellProcess
import Glibc

/// The C side of the plugin SDK — the folder holding `cellhost/plugin.h` and the folder holding
/// `cellhost-plugin.pc` — as `cellhost sdk` reports them, so a plugin builds with
/// `cc $(cellhost sdk --cflags) …` from any folder. Lives beside `CellhostVersion` because both
/// describe the tool and the plugin ABI it hosts (the .pc file's version is that ABI).
///
/// SwiftPM installs no headers, so the executable's own folder never holds them. Two layouts are
/// tried, the first whose `cellhost/plugin.h` exists wins:
/// - installed: `<prefix>/bin/cellhost` with `<prefix>/include/cellhost/plugin.h` and
///   `<prefix>/lib/pkgconfig/cellhost-plugin.pc`. First, so an installed tool answers with the
///   headers installed with it even when the source tree it was built from still exists;
/// - source tree: the package the tool was built from, known at build time from this file's
///   path, with `SDK/include` and `SDK/pkgconfig`.
public struct PluginSDK: Sendable, Equatable {
    public enum Layout: Sendable, Equatable {
        case installed(prefix: String)
        case sourceTree(root: String)
    }

    public var layout: Layout
    /// The folder to pass with -I: it holds `cellhost/plugin.h`.
    public var includeDirectory: String
    /// The folder to put on PKG_CONFIG_PATH: it holds (or, installed, should hold) `cellhost-plugin.pc`.
    public var pkgConfigDirectory: String

    public static let headerName = "cellhost/plugin.h"
    public static let pkgConfigName = "cellhost-plugin"
    public static var pkgConfigFileName: String { pkgConfigName + ".pc" }

    public var headerPath: String { "\(includeDirectory)/\(Self.headerName)" }
    public var pkgConfigPath: String { "\(pkgConfigDirectory)/\(Self.pkgConfigFileName)" }

    /// What a C compiler needs: the include folder only. No `-std`: today's compilers default to
    /// C11 or later, a `-std=c99` here would lower an author's newer standard (and hide POSIX
    /// functions such as strdup under strict ISO mode), and plugin.h itself stops older C with
    /// an #error that says what it needs.
    public var compilerFlags: String { "-I\(includeDirectory)" }

    /// The package root at build time: this file is Sources/CellValidation/PluginSDK.swift.
    static let buildTimePackageRoot: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    /// The layouts tried, in order, for the executable at `executable`.
    public static func candidates(executable: String = WorkerProcess.currentExecutablePath) -> [PluginSDK] {
        let binDirectory = parent(of: executable)
        let prefix = parent(of: binDirectory)
        let root = buildTimePackageRoot
        var found: [PluginSDK] = []
        if binDirectory.hasSuffix("/bin") {
            found.append(PluginSDK(layout: .installed(prefix: prefix), includeDirectory: "\(prefix)/include",
                                   pkgConfigDirectory: "\(prefix)/lib/pkgconfig"))
        }
        found.append(PluginSDK(layout: .sourceTree(root: root), includeDirectory: "\(root)/SDK/include",
                               pkgConfigDirectory: "\(root)/SDK/pkgconfig"))
        return found
    }

    /// The first candidate whose header exists; the error names every folder looked in.
    public static func locate(executable: String = WorkerProcess.currentExecutablePath) throws(PluginSDKError) -> PluginSDK {
        let candidates = candidates(executable: executable)
        guard let sdk = candidates.first(where: { access($0.headerPath, R_OK) == 0 }) else {
            throw PluginSDKError.headerNotFound(searched: candidates.map(\.includeDirectory))
        }
        return sdk
    }

    /// The folder holding `cellhost-plugin.pc`, or an error saying how to write one.
    public func existingPkgConfigDirectory() throws(PluginSDKError) -> String {
        guard access(pkgConfigPath, R_OK) == 0 else { throw PluginSDKError.pkgConfigFileNotFound(pkgConfigPath) }
        return pkgConfigDirectory
    }

    /// `includedir` of the .pc file kept in SDK/pkgconfig: relative to the file itself, so the
    /// checkout works wherever it is (pkg-config expands `${pcfiledir}`).
    public static let sourceTreeIncludeDirectory = "${pcfiledir}/../include"

    /// The text of `cellhost-plugin.pc` whose `includedir` is `includeDirectory`. Its version is
    /// the plugin ABI, so `pkg-config --atleast-version` asks what an author cares about.
    public static func pkgConfigFile(includeDirectory: String) -> String {
        """
        # The cellhost plugin SDK for C: the plugin ABI's header, cellhost/plugin.h.
        # `cellhost sdk --write-pc DIR` writes this file for the headers the tool finds.
        includedir=\(includeDirectory)

        Name: \(pkgConfigName)
        Description: cellhost plugin ABI header (cellhost/plugin.h) for plugins written in C
        Version: \(CELLHOST_ABI_MAJOR).\(CELLHOST_ABI_MINOR)
        Cflags: -I${includedir}

        """
    }

    /// Writes `cellhost-plugin.pc` naming this SDK's include folder into `directory` (created if
    /// missing, like `mkdir -p`) and returns its path. Written whole or not at all.
    public func writePkgConfigFile(into directory: String) throws(SinkError) -> String {
        try makeDirectories(directory)
        let path = "\(directory)/\(Self.pkgConfigFileName)"
        let file = try AtomicFile(path: path)
        file.write(Self.pkgConfigFile(includeDirectory: includeDirectory))
        try file.commit()
        return path
    }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}

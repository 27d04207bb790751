import CellIO
import CellProcess
import Glibc

/// A new plugin project, as `cellhost new` writes it: one configuration type (a title, a tint,
/// a count, an `increment(by:)` action, a tint that follows the state) in C, Swift or Rust,
/// that builds with one command, passes `cellhost validate` and shows up as a cell in the
/// embedded stream of `cellhost run --plugin` (which adds a cell of every loaded type).
///
/// The project depends on the SDK by absolute path — the header through `cellhost sdk`, the
/// Rust crate and the Swift package in the source tree the tool was built from — so the build
/// command works right after `new`, without installing anything.
public struct PluginProject: Sendable {
    public enum Language: String, CaseIterable, Sendable {
        case c, swift, rust
    }

    public let name: PluginProjectName
    public let language: Language
    /// How the project's README and Makefile call the tool: `cellhost` when that name on PATH
    /// is this tool, else its absolute path.
    public let tool: String
    /// The tool's absolute path, which the C project falls back to when `cellhost` is not on PATH.
    public let toolPath: String
    /// The cellhost source tree: SDK/Rust is the crate, the root the Swift package (nil: the
    /// tree this tool was built from).
    public let sdkRoot: String

    public init(name: PluginProjectName, language: Language,
                toolPath: String = WorkerProcess.currentExecutablePath, sdkRoot: String? = nil) {
        self.name = name
        self.language = language
        self.toolPath = toolPath
        self.tool = Self.commandName(for: toolPath)
        self.sdkRoot = sdkRoot ?? PluginSDK.buildTimePackageRoot
    }

    /// One file of the project: a path relative to the project folder and its text.
    public struct File: Sendable, Equatable {
        public var path: String
        public var text: String
    }

    /// The one command that builds the plugin, run in the project folder.
    public var buildCommand: String {
        switch language {
        case .c: "make"
        case .swift: "swift build"
        case .rust: "cargo build --release --offline"
        }
    }

    /// The built plugin, relative to the project folder.
    public var builtLibrary: String {
        switch language {
        case .c: "lib\(name.snake).so"
        case .swift: ".build/debug/lib\(name.upperCamel).so"
        case .rust: "target/release/lib\(name.snake).so"
        }
    }

    /// The SDK folder the project depends on, checked before anything is written.
    var dependency: String? {
        switch language {
        case .c: nil
        case .swift: "\(sdkRoot)/Package.swift"
        case .rust: "\(sdkRoot)/SDK/Rust/Cargo.toml"
        }
    }

    public var files: [File] {
        let shared = [File(path: "README.md", text: PluginProjectReadme.text(for: self)),
                      File(path: "cells.jsonl", text: PluginProjectReadme.exampleStream(for: name))]
        return switch language {
        case .c: CPluginTemplate.files(for: self) + shared
        case .swift: SwiftPluginTemplate.files(for: self) + shared
        case .rust: RustPluginTemplate.files(for: self) + shared
        }
    }

    /// Writes the project into `folder`, which must not exist or be empty. All or nothing: the
    /// files go into a hidden folder beside it, renamed into place once complete (a rename
    /// replaces an empty folder), so a failure leaves the folder as it was.
    public func write(into folder: String) throws(PluginProjectError) {
        var folder = folder
        while folder.count > 1, folder.hasSuffix("/") { folder.removeLast() }
        if let dependency, access(dependency, R_OK) != 0 {
            throw .sdkNotFound(language: language.rawValue, missing: dependency)
        }
        var info = stat()
        if stat(folder, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else { throw .notAFolder(folder) }
            guard let entries = directoryEntries(folder) else {
                throw .notWritten("cannot read \(folder): \(String(cString: strerror(errno)))")
            }
            guard entries.isEmpty else { throw .folderNotEmpty(folder) }
        }
        let parent = PluginSDK.parent(of: folder)
        do throws(SinkError) { try makeDirectories(parent) } catch { throw .notWritten(error.description) }
        let leaf = folder.split(separator: "/").last.map(String.init) ?? name.given
        var template = Array("\(parent)/.\(leaf).new-XXXXXX".utf8CString)
        guard let staging = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!).map { String(cString: $0) } }) else {
            throw .notWritten("cannot create a folder in \(parent): \(String(cString: strerror(errno)))")
        }
        var written: [String] = [staging]
        do throws(PluginProjectError) {
            for file in files {
                let path = "\(staging)/\(file.path)"
                var directory = PluginSDK.parent(of: path)
                var created: [String] = []
                while directory != staging, access(directory, F_OK) != 0 {
                    created.insert(directory, at: 0)
                    directory = PluginSDK.parent(of: directory)
                }
                for directory in created {
                    guard mkdir(directory, 0o755) == 0 else {
                        throw .notWritten("cannot create \(directory): \(String(cString: strerror(errno)))")
                    }
                    written.append(directory)
                }
                try Self.writeFile(file.text, to: path)
                written.append(path)
            }
            chmod(staging, 0o755)
            guard rename(staging, folder) == 0 else {
                if errno == ENOTEMPTY || errno == EEXIST { throw .folderNotEmpty(folder) }
                throw .notWritten("cannot create \(folder): \(String(cString: strerror(errno)))")
            }
        } catch {
            for path in written.reversed() { if unlink(path) != 0 { rmdir(path) } }
            throw error
        }
    }

    private static func writeFile(_ text: String, to path: String) throws(PluginProjectError) {
        guard let file = fopen(path, "wx") else {
            throw .notWritten("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        let complete = fputs(text, file) >= 0
        guard fclose(file) == 0, complete else {
            throw .notWritten("cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// `cellhost` when the first `cellhost` on PATH is the same file as `toolPath`.
    static func commandName(for toolPath: String) -> String {
        var path = ""
        if let value = getenv("PATH") { path = String(cString: value) }
        let candidates: [String] = path.split(separator: ":").map { directory in "\(directory)/cellhost" }
        guard let onPath = candidates.first(where: { access($0, X_OK) == 0 }) else {
            return toolPath
        }
        var a = stat(), b = stat()
        guard stat(onPath, &a) == 0, stat(toolPath, &b) == 0, a.st_dev == b.st_dev, a.st_ino == b.st_ino else { return toolPath }
        return "cellhost"
    }
}

import CellIO
import CellRuntime
import CellKit
import CellPlugins
import Glibc
import Testing

/// Paths to the built sample plugins and a C compiler for plugins written inside tests.
enum PluginFixtures {
    /// The loader's sentence refusing `path`, naming it; nil when the plugin loads.
    static func refusal(_ path: String, registry: PluginRegistry = PluginRegistry()) -> String? {
        do {
            try registry.load(path)
            return nil
        } catch {
            #expect(error.path == path)
            return error.description
        }
    }

    /// The package root, from this file's location.
    static let packageRoot: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // Tests/CellPluginsTests/PluginFixtures.swift
        return parts.joined(separator: "/")
    }()

    /// The build directory holding the test bundle and the sample `.so` products.
    static let buildDirectory: String = {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let exe = String(decoding: buffer.prefix(max(0, n)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return String(exe[..<(exe.lastIndex(of: "/") ?? exe.endIndex)])
    }()

    static func sample(_ product: String) -> String { "\(buildDirectory)/lib\(product).so" }

    /// A fresh temporary directory.
    static func temporaryDirectory() -> String { makeTemporaryDirectory(prefix: "cellplugins-test")! }

    /// Writes `contents` to `path`.
    static func write(_ contents: String, to path: String) {
        let file = fopen(path, "w")!
        fputs(contents, file)
        fclose(file)
    }

    /// Compiles `source` with plain `cc -shared -fPIC -I SDK/include` into `name`.so in a temp dir.
    static func compile(_ source: String, name: String, extraFlags: String = "") throws -> String {
        let directory = temporaryDirectory()
        let sourcePath = "\(directory)/\(name).c"
        let output = "\(directory)/\(name).so"
        write(source, to: sourcePath)
        let command = "cc -shared -fPIC -std=c11 -Wall -Werror -I '\(packageRoot)/SDK/include' \(extraFlags) "
            + "-o '\(output)' '\(sourcePath)' 2>'\(directory)/cc.log'"
        let status = system(command)
        guard status == 0 else {
            throw CompileError(log: readTextFile("\(directory)/cc.log") ?? "")
        }
        return output
    }

    struct CompileError: Error, CustomStringConvertible {
        var log: String
        var description: String { "cc failed:\n\(log)" }
    }
}

extension Color {
    /// The colour as it comes back from a plugin: plain components, no system name.
    var withoutName: Color { Color(red: red, green: green, blue: blue, alpha: alpha) }
}

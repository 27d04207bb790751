import CellIO
import CellRuntime
import Glibc
import Testing

/// The built tool and sample plugin, and a C compiler for the broken plugins in BrokenPlugins/.
enum ValidationFixtures {
    /// The package root, from this file's location.
    static let packageRoot: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // Tests/CellValidationTests/ValidationFixtures.swift
        return parts.joined(separator: "/")
    }()

    static let brokenPlugins = "\(packageRoot)/Tests/CellValidationTests/BrokenPlugins"

    /// The build directory holding the test bundle, the `cellhost` tool and the sample `.so` files.
    static let buildDirectory: String = {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let exe = String(decoding: buffer.prefix(max(0, n)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return String(exe[..<(exe.lastIndex(of: "/") ?? exe.endIndex)])
    }()

    static var tool: String { "\(buildDirectory)/cellhost" }

    static func sample(_ product: String) -> String { "\(buildDirectory)/lib\(product).so" }

    static func temporaryDirectory() -> String { makeTemporaryDirectory(prefix: "cellvalidation-test")! }

    /// Builds BrokenPlugins/`name`.c with plain `cc -shared -fPIC -I SDK/include`.
    static func build(_ name: String, flags: String = "") throws -> String {
        let directory = temporaryDirectory()
        let output = "\(directory)/\(name).so"
        let command = "cc -shared -fPIC -std=c11 -Wall -Werror -I '\(packageRoot)/SDK/include' \(flags) "
            + "-o '\(output)' '\(brokenPlugins)/\(name).c' 2>'\(directory)/cc.log'"
        guard system(command) == 0 else { throw CompileError(name: name, log: readTextFile("\(directory)/cc.log") ?? "") }
        return output
    }

    struct CompileError: Error, CustomStringConvertible {
        var name: String
        var log: String
        var description: String { "cc failed for \(name).c:\n\(log)" }
    }
}

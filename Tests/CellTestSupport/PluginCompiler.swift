import CellIO
import Glibc

/// Builds a C plugin the way its authors do, with plain `cc -shared -fPIC -I SDK/include`, so
/// tests can load plugins written against `plugin.h` alone (well-formed or deliberately broken).
public enum PluginCompiler {
    /// Compiles the C file at `sourcePath` into `directory`/`name`.so with `compiler`; the
    /// compiler's messages become the error when it fails.
    public static func compile(file sourcePath: String, name: String, into directory: String,
                               extraFlags: String = "", compiler: String = "cc") throws(CompileError) -> String {
        let output = "\(directory)/\(name).so"
        let command = "\(compiler) -shared -fPIC -std=c11 -Wall -Werror -I '\(BuiltProducts.packageRoot)/SDK/include' \(extraFlags) "
            + "-o '\(output)' '\(sourcePath)' 2>'\(directory)/cc.log'"
        guard system(command) == 0 else {
            throw CompileError(name: name, log: readTextFile("\(directory)/cc.log") ?? "")
        }
        return output
    }

    /// Writes `source` to a fresh folder and compiles it into `name`.so there.
    public static func compile(source: String, name: String, extraFlags: String = "") throws(CompileError) -> String {
        let directory = BuiltProducts.temporaryDirectory(prefix: "cellhost-plugin-src")
        let sourcePath = "\(directory)/\(name).c"
        guard let file = fopen(sourcePath, "w") else { fatalError("cannot write \(sourcePath)") }
        fputs(source, file)
        fclose(file)
        return try compile(file: sourcePath, name: name, into: directory, extraFlags: extraFlags)
    }

    public struct CompileError: Error, CustomStringConvertible {
        public var name: String
        public var log: String
        public var description: String { "cc failed for \(name).c:\n\(log)" }
    }
}

/// Why a plugin was refused. `description` is one sentence naming the file and the problem.
public struct PluginLoadError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Reason: Hashable, Sendable {
        /// The folder a bare file name was looked for in; nil for a path with a slash.
        case fileNotFound(inCurrentFolder: String?)
        case isDirectory
        case notARegularFile
        case emptyFile
        case notELF
        case unreadable(String)
        /// dlopen's own message (unresolved symbols, wrong architecture, …).
        case dlopenFailed(String)
        case missingEntry
        case entryReturnedNull
        /// The entry's result is not a descriptor: what was wrong with it.
        case garbageDescriptor(String)
        case incompatibleVersion(plugin: String, host: String)
        /// The descriptor or something it points to breaks a rule of plugin.h.
        case invalidDescriptor(String)
        case duplicateTypeIdentifier(String, alreadyIn: String)
        case initRefused
    }

    public var path: String
    public var reason: Reason

    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    public var description: String {
        let problem: String = switch reason {
        case .fileNotFound(nil): "no such file"
        case .fileNotFound(let folder?): "no such file in the current folder, \(folder)"
        case .isDirectory: "is a directory, not a plugin library"
        case .notARegularFile: "is not a regular file"
        case .emptyFile: "is an empty file, not a plugin library"
        case .notELF: "is not an ELF shared library (wrong magic bytes)"
        case .unreadable(let why): "cannot be read: \(why)"
        case .dlopenFailed(let message) where message.contains("undefined symbol: __asan_"):
            // A plugin built with clang's AddressSanitizer needs clang's runtime loaded first.
            "dlopen failed: \(message); the plugin was built with clang's AddressSanitizer, whose runtime must be "
                + "loaded first: run ASAN_OPTIONS=detect_leaks=0 LD_PRELOAD=$(clang -print-file-name=libclang_rt.asan-x86_64.so) "
                + "cellhost … --in-process"
        case .dlopenFailed(let message): "dlopen failed: \(message)"
        case .missingEntry: "does not export the entry symbol cellhost_plugin_entry"
        case .entryReturnedNull: "cellhost_plugin_entry returned NULL instead of a descriptor"
        case .garbageDescriptor(let why): "cellhost_plugin_entry did not return a plugin descriptor: \(why)"
        case .incompatibleVersion(let plugin, let host):
            "was built for plugin ABI \(plugin), which this host (ABI \(host)) cannot load: the major versions must match and the plugin's minor must not exceed the host's"
        case .invalidDescriptor(let why): "has an invalid descriptor: \(why)"
        case .duplicateTypeIdentifier(let id, let other): "declares type \(id), which \(other) already provides"
        case .initRefused: "refused to initialise (its init returned false; see its log)"
        }
        return "\(path): \(problem)"
    }
}

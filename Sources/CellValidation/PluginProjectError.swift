/// Why `cellhost new` wrote no project: one sentence naming the folder or the SDK path.
public enum PluginProjectError: Error, Equatable, CustomStringConvertible {
    /// The folder exists and holds files: nothing is written into it, so no file of the
    /// author's is ever replaced.
    case folderNotEmpty(String)
    /// The path exists and is not a folder.
    case notAFolder(String)
    /// The SDK folder the project depends on is not where the tool was built from (an installed
    /// tool ships the C header only).
    case sdkNotFound(language: String, missing: String)
    /// Creating the folder or writing a file failed; what was written is removed again.
    case notWritten(String)

    public var description: String {
        switch self {
        case .folderNotEmpty(let folder):
            "\(folder) already exists and is not empty; give a new folder with --dir, or empty this one"
        case .notAFolder(let path):
            "\(path) exists and is not a folder"
        case .sdkNotFound(let language, let missing):
            "cannot create a \(language) project: the SDK it depends on, \(missing), is missing (it is in the cellhost source tree this tool was built from)"
        case .notWritten(let reason):
            reason
        }
    }
}

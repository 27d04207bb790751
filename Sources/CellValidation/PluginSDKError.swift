/// Why `cellhost sdk` cannot answer: one sentence naming where it looked.
public enum PluginSDKError: Error, Equatable, CustomStringConvertible {
    case headerNotFound(searched: [String])
    case pkgConfigFileNotFound(String)

    public var description: String {
        switch self {
        case .headerNotFound(let searched):
            "cannot find the plugin SDK: no \(PluginSDK.headerName) in "
                + searched.joined(separator: " or ")
                + " (an installed cellhost needs <prefix>/include next to <prefix>/bin; a built one, the source tree it was built from)"
        case .pkgConfigFileNotFound(let path):
            "no \(PluginSDK.pkgConfigFileName) at \(path); write one with `cellhost sdk --write-pc \(PluginSDK.parent(of: path))`"
        }
    }
}

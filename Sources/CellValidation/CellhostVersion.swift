import CCellHostABI

/// The tool's version, as `cellhost --version` prints it. One constant, so every place that
/// names the version says the same thing; the plugin ABI the tool hosts is part of the answer
/// because it decides which plugins load.
public enum CellhostVersion {
    public static let number = "0.1.0"
    public static let pluginABI = "\(CELLHOST_ABI_MAJOR).\(CELLHOST_ABI_MINOR)"
    /// "0.1.0 (plugin ABI 1.2)".
    public static let description = "\(number) (plugin ABI \(pluginABI))"
}

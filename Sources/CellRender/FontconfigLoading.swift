import CFontconfig

/// fontconfig's configuration and font list, loaded before a worker enters its sandbox:
/// fontconfig writes its cache files while it loads them, and inside the sandbox such a write
/// would be refused and read as the plugin's attempt to write outside the output folder. Once
/// loaded, the fonts are looked up in memory.
public enum FontconfigLoading {
    public static func load() { _ = FcInit() }
}

/// The type ids of the configurations built into the host. A plugin type claiming one would
/// stand in for the host's own cells wherever a stream names that type, so the loader refuses it.
public enum BuiltInTypeIdentifiers {
    public static let all: Set<String> = [
        "com.cellhost.list-content", "com.cellhost.background", "com.cellhost.no-content",
        "com.cellhost.text-properties", "com.cellhost.image-properties", "com.cellhost.shadow-properties",
    ]
}

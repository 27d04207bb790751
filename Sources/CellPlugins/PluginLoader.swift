import CCellHostABI
import CellKit
import Glibc

/// A plugin library loaded and validated: its metadata and the configuration types it provides.
public final class LoadedPlugin: @unchecked Sendable {
    public let path: String
    public let pluginID: String
    public let name: String
    public let version: String
    public let vendor: String
    public let summary: String?
    /// The ABI version the plugin was built against ("1.1").
    public let abiVersion: String
    public let types: [PluginConfigurationType]
    /// Time from dlopen to a validated, initialised plugin.
    public let loadDuration: Duration
    let descriptor: UnsafePointer<cellhost_plugin_descriptor>

    init(path: String, pluginID: String, name: String, version: String, vendor: String, summary: String?,
         abiVersion: String, types: [PluginConfigurationType], loadDuration: Duration,
         descriptor: UnsafePointer<cellhost_plugin_descriptor>) {
        self.path = path
        self.pluginID = pluginID
        self.name = name
        self.version = version
        self.vendor = vendor
        self.summary = summary
        self.abiVersion = abiVersion
        self.types = types
        self.loadDuration = loadDuration
        self.descriptor = descriptor
    }

    public func type(_ identifier: String) -> PluginConfigurationType? {
        types.first { $0.typeIdentifier == identifier }
    }
}

/// dlopen a plugin library as every command names it: a path without a slash is a file in the
/// current folder, as for stat, open and every other tool, where dlopen alone would search the
/// library path (LD_LIBRARY_PATH, the loader cache) for it instead. Every dlopen of a plugin goes
/// through here, so `run`, `inspect` and `validate` read a path alike.
public func openPluginImage(_ path: String, flags: Int32) -> UnsafeMutableRawPointer? {
    dlopen(pluginImagePath(path), flags)
}

/// The path handed to dlopen for `path`: "./" before a bare file name.
func pluginImagePath(_ path: String) -> String { path.contains("/") ? path : "./" + path }

/// Loads one plugin: file checks, `dlopen(RTLD_NOW | RTLD_LOCAL)`, the entry, the version rule,
/// and every rule of plugin.h that can be checked before running plugin code beyond the entry.
/// Images are never dlclosed (Swift plugins must not be, and a refused plugin's constructors
/// have already run).
enum PluginLoader {
    static let hostVersion = (major: UInt16(CELLHOST_ABI_MAJOR), minor: UInt16(CELLHOST_ABI_MINOR))
    /// Struct sizes beyond this are garbage, not a future minor version.
    static let maximumStructSize: UInt32 = 1 << 16
    static let maximumCount: UInt32 = 4096

    static func load(path: String, takenTypeIdentifiers: [String: String], alreadyLoaded: [LoadedPlugin] = [],
                     cache: FFISignatureCache = .shared) throws(PluginLoadError) -> LoadedPlugin {
        func fail(_ reason: PluginLoadError.Reason) -> PluginLoadError { PluginLoadError(path: path, reason: reason) }
        try checkFile(path)

        let clock = ContinuousClock()
        let start = clock.now
        _ = dlerror()
        guard let image = openPluginImage(path, flags: RTLD_NOW | RTLD_LOCAL) else {
            let message = dlerror().map { String(cString: $0) } ?? "unknown error"
            let opened = pluginImagePath(path) + ": "
            throw fail(.dlopenFailed(message.hasPrefix(opened) ? String(message.dropFirst(opened.count)) : message))
        }
        guard let symbol = dlsym(image, CELLHOST_ENTRY_SYMBOL) else { throw fail(.missingEntry) }
        let entry = unsafeBitCast(symbol, to: cellhost_plugin_entry_fn.self)
        guard let descriptorPointer = entry() else { throw fail(.entryReturnedNull) }
        // dlopen of a loaded library returns the same image, hence the same descriptor.
        if let loaded = alreadyLoaded.first(where: { $0.descriptor == descriptorPointer }) { return loaded }

        let memory = ProbedMemory()
        let descriptor = try readDescriptor(descriptorPointer, path: path, memory: memory)
        let validator = DescriptorValidator(path: path, cache: cache, memory: memory)
        let pluginID = try validator.string(descriptor.plugin_id, "plugin_id", required: true)!
        guard DescriptorValidator.isReverseDNS(pluginID) else {
            throw fail(.invalidDescriptor("plugin_id \"\(pluginID)\" is not a reverse-DNS identifier such as com.example.plugin"))
        }
        let name = try validator.string(descriptor.name, "name", required: true)!
        let version = try validator.string(descriptor.version, "version", required: true)!
        let vendor = try validator.string(descriptor.vendor, "vendor", required: true)!
        let summary = try validator.string(descriptor.description, "description", required: false)
        let types = try validator.types(descriptor, pluginID: pluginID, taken: takenTypeIdentifiers)

        if let initialize = descriptor.`init` {
            guard initialize(HostServices.makeTable(pluginID: pluginID)) else { throw fail(.initRefused) }
        }
        return LoadedPlugin(path: path, pluginID: pluginID, name: name, version: version, vendor: vendor,
                            summary: summary, abiVersion: "\(descriptor.header.abi_major).\(descriptor.header.abi_minor)",
                            types: types, loadDuration: clock.now - start, descriptor: descriptorPointer)
    }

    /// Refuses what is not a readable, non-empty ELF file before dlopen sees it.
    static func checkFile(_ path: String) throws(PluginLoadError) {
        func fail(_ reason: PluginLoadError.Reason) -> PluginLoadError { PluginLoadError(path: path, reason: reason) }
        var info = stat()
        guard stat(path, &info) == 0 else {
            guard errno == ENOENT || errno == ENOTDIR else { throw fail(.unreadable(String(cString: strerror(errno)))) }
            throw fail(.fileNotFound(inCurrentFolder: path.contains("/") ? nil : currentFolder()))
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: throw fail(.isDirectory)
        case S_IFREG: break
        default: throw fail(.notARegularFile)
        }
        guard info.st_size > 0 else { throw fail(.emptyFile) }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw fail(.unreadable(String(cString: strerror(errno)))) }
        defer { close(fd) }
        var magic: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
        let count = withUnsafeMutableBytes(of: &magic) { read(fd, $0.baseAddress, 4) }
        guard count == 4, magic == (0x7F, 0x45, 0x4C, 0x46) else { throw fail(.notELF) }
    }

    private static func currentFolder() -> String {
        guard let folder = getcwd(nil, 0) else { return "." }
        defer { free(folder) }
        return String(cString: folder)
    }

    /// Reads the descriptor without trusting the pointer: the header is probed first, then the
    /// version rule and size are checked before anything past the header is read.
    static func readDescriptor(_ pointer: UnsafePointer<cellhost_plugin_descriptor>, path: String,
                               memory: ProbedMemory) throws(PluginLoadError) -> cellhost_plugin_descriptor {
        func fail(_ reason: PluginLoadError.Reason) -> PluginLoadError { PluginLoadError(path: path, reason: reason) }
        var head = (cellhost_header(), UInt32(0))
        let headSize = MemoryLayout<cellhost_header>.stride + MemoryLayout<UInt32>.size
        guard withUnsafeMutableBytes(of: &head, { memory.read(pointer, into: $0.baseAddress!, count: headSize) }) else {
            throw fail(.garbageDescriptor("it points to unreadable memory"))
        }
        let (header, magic) = head
        guard magic == CELLHOST_DESCRIPTOR_MAGIC else {
            throw fail(.garbageDescriptor("the magic number is 0x\(String(magic, radix: 16)), not CELLHOST_DESCRIPTOR_MAGIC"))
        }
        guard header.abi_major == hostVersion.major, header.abi_minor <= hostVersion.minor else {
            throw fail(.incompatibleVersion(plugin: "\(header.abi_major).\(header.abi_minor)",
                                            host: "\(hostVersion.major).\(hostVersion.minor)"))
        }
        let known = UInt32(MemoryLayout<cellhost_plugin_descriptor>.size)
        guard header.struct_size >= known, header.struct_size <= maximumStructSize else {
            throw fail(.invalidDescriptor("the descriptor's struct_size is \(header.struct_size) bytes; ABI \(header.abi_major).\(header.abi_minor) needs \(known)"))
        }
        var descriptor = cellhost_plugin_descriptor()
        guard withUnsafeMutableBytes(of: &descriptor, { memory.read(pointer, into: $0.baseAddress!, count: Int(known)) }) else {
            throw fail(.garbageDescriptor("the descriptor runs into unreadable memory"))
        }
        return descriptor
    }
}

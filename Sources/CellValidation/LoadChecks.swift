import CCellHostABI
import CellKit
import CellPlugins
import Glibc

/// Checks of loading and describing: they exercise the library and its descriptor, not its
/// configurations.
enum LoadChecks {
    static let hostMajor = UInt16(CELLHOST_ABI_MAJOR), hostMinor = UInt16(CELLHOST_ABI_MINOR)
    static let loadWarningSeconds = 0.1, loadFailureSeconds = 1.0

    /// Which check explains a loader refusal; every other check is then skipped.
    static func responsibleCheck(for reason: PluginLoadError.Reason) -> String {
        switch reason {
        case .fileNotFound, .isDirectory, .notARegularFile, .emptyFile, .notELF, .unreadable, .dlopenFailed:
            "strict-load"
        case .missingEntry: "entry-symbol"
        case .incompatibleVersion: "abi-version"
        case .entryReturnedNull, .garbageDescriptor, .invalidDescriptor, .duplicateTypeIdentifier, .initRefused:
            "descriptor"
        }
    }

    /// dlopen with RTLD_NOW: every undefined symbol must resolve now, not at the first call.
    static func strictLoad(_ r: CheckRecorder) {
        if case .failure(let error) = r.loadPlugin(), responsibleCheck(for: error.reason) == "strict-load" {
            r.fail(error.description)
            return
        }
        r.step("dlopen(RTLD_NOW)")
        _ = dlerror()
        guard openPluginImage(r.path, flags: RTLD_NOW | RTLD_LOCAL) != nil else {
            r.fail("dlopen(RTLD_NOW) failed: " + (dlerror().map { String(cString: $0) } ?? "unknown error"))
            return
        }
        r.note("every undefined symbol resolved at load time")
    }

    /// The entry symbol is exported, and nothing else needs to be.
    static func entrySymbol(_ r: CheckRecorder) {
        guard let entry = entryFunction(r) else { return }
        _ = entry
        guard let exports = ELFExports.names(inFileAt: r.path) else {
            r.note("not a 64-bit little-endian ELF file; exports not listed")
            return
        }
        let extra = exports.filter { $0 != CELLHOST_ENTRY_SYMBOL && !ELFExports.isIncidental($0) }.sorted()
        if !extra.isEmpty {
            r.warn("exports \(extra.count) symbol(s) besides \(CELLHOST_ENTRY_SYMBOL), which may clash with other plugins "
                   + "(make them static or hidden): " + extra.prefix(8).joined(separator: ", ")
                   + (extra.count > 8 ? ", …" : ""))
        }
        r.note("\(CELLHOST_ENTRY_SYMBOL) is exported; it is the only symbol the host looks up")
    }

    /// The descriptor's version follows the rule: same major, minor not above the host's.
    static func abiVersion(_ r: CheckRecorder) {
        if case .failure(let error) = r.loadPlugin(), case .incompatibleVersion = error.reason {
            r.fail(error.description)
            return
        }
        guard let entry = entryFunction(r) else { return }
        r.step("calling \(CELLHOST_ENTRY_SYMBOL)")
        guard let descriptor = entry() else { r.skip("the entry returned NULL (descriptor reports it)"); return }
        var header = cellhost_header()
        guard cellhost_probe_read(descriptor, &header, MemoryLayout<cellhost_header>.size) == 0 else {
            r.skip("the descriptor is unreadable (descriptor reports it)")
            return
        }
        let plugin = "\(header.abi_major).\(header.abi_minor)", host = "\(hostMajor).\(hostMinor)"
        guard header.abi_major == hostMajor, header.abi_minor <= hostMinor else {
            r.fail("built for plugin ABI \(plugin), which this host (ABI \(host)) cannot load")
            return
        }
        r.note("built for ABI \(plugin); host ABI \(host)")
    }

    /// The descriptor passes every loader rule and is the same, byte for byte, on every call.
    static func descriptor(_ r: CheckRecorder) {
        if case .failure(let error) = r.loadPlugin() {
            if responsibleCheck(for: error.reason) == "descriptor" { r.fail(error.description) } else {
                r.skip("the plugin did not load (\(responsibleCheck(for: error.reason)) reports why)")
            }
            return
        }
        guard let entry = entryFunction(r) else { return }
        r.step("calling \(CELLHOST_ENTRY_SYMBOL) again")
        guard let first = entry() else { r.fail("\(CELLHOST_ENTRY_SYMBOL) returned NULL on a later call"); return }
        let size = Int(first.pointee.header.struct_size)
        let firstBytes = Array(UnsafeRawBufferPointer(start: first, count: size))
        let firstStrings = strings(of: first.pointee)
        for call in 2...4 {
            r.step("calling \(CELLHOST_ENTRY_SYMBOL) (call \(call))")
            guard let again = entry() else { r.fail("\(CELLHOST_ENTRY_SYMBOL) returned NULL on call \(call)"); return }
            if again != first {
                r.fail("\(CELLHOST_ENTRY_SYMBOL) returned a different descriptor on call \(call) "
                       + "(\(first) then \(again)); it must return the same one every time")
                return
            }
            if Array(UnsafeRawBufferPointer(start: again, count: size)) != firstBytes || strings(of: again.pointee) != firstStrings {
                r.fail("the descriptor changed between calls (call \(call) differs); it must stay unchanged until the process ends")
                return
            }
        }
        r.note("the descriptor is valid and identical across 4 calls")
    }

    /// The plugin answers NULL / false for ids and names it does not know.
    static func unknownIdentifiers(_ r: CheckRecorder) {
        guard let plugin = r.plugin(), let entry = entryFunction(r), let descriptor = entry() else { return }
        let unknownExtension = "com.cellhost.validate.no-such-extension"
        if let getExtension = descriptor.pointee.get_extension {
            r.step("get_extension(\"\(unknownExtension)\")")
            if getExtension(unknownExtension) != nil {
                r.fail("get_extension(\"\(unknownExtension)\") returned non-NULL for an id it cannot know")
            }
        }
        for (index, type) in plugin.types.enumerated() {
            let raw = descriptor.pointee.types[index]!.pointee
            guard let config = type.makeDefault() else { continue }
            for name in ["cellhost_validate_no_such_property", ""] {
                r.step("\(type.typeIdentifier): is_customized(\"\(name)\")")
                if raw.is_customized(config.handle, name) {
                    r.fail("\(type.typeIdentifier): is_customized(\"\(name)\") is true for a property the type does not have")
                }
            }
            if (try? config.performing("cellhostValidateNoSuchAction", arguments: [])) != nil {
                r.fail("\(type.typeIdentifier): an unknown action was performed instead of refused")
            }
        }
    }

    /// dlopen to a described plugin: warn above 100 ms, fail above 1 s.
    static func loadTime(_ r: CheckRecorder) {
        guard let plugin = r.plugin() else { return }
        let clock = ContinuousClock()
        let start = clock.now
        for type in plugin.types {
            r.step("\(type.typeIdentifier): describing the default configuration")
            _ = type.makeDefault()?.inspectableProperties
        }
        let load = seconds(plugin.loadDuration), describe = seconds(clock.now - start)
        let total = load + describe
        let text = "load \(milliseconds(load)) + describe \(milliseconds(describe)) = \(milliseconds(total))"
        if total > loadFailureSeconds {
            r.fail("\(text), above the \(milliseconds(loadFailureSeconds)) limit")
        } else if total > loadWarningSeconds {
            r.warn("\(text), above \(milliseconds(loadWarningSeconds)): defer expensive set-up to first use")
        } else {
            r.note(text)
        }
    }

    /// The entry function from a strict dlopen; skips the check when there is none (the checks
    /// responsible report why).
    static func entryFunction(_ r: CheckRecorder) -> cellhost_plugin_entry_fn? {
        _ = dlerror()
        guard let image = openPluginImage(r.path, flags: RTLD_NOW | RTLD_LOCAL) else {
            r.skip("the library does not load (strict-load reports why)")
            return nil
        }
        guard let symbol = dlsym(image, CELLHOST_ENTRY_SYMBOL) else {
            if r.checkID == "entry-symbol" {
                r.fail("\(r.path) does not export \(CELLHOST_ENTRY_SYMBOL)")
            } else {
                r.skip("there is no entry symbol (entry-symbol reports it)")
            }
            return nil
        }
        return unsafeBitCast(symbol, to: cellhost_plugin_entry_fn.self)
    }

    private static func strings(of d: cellhost_plugin_descriptor) -> [String?] {
        [d.plugin_id, d.name, d.version, d.vendor, d.description].map { $0.map { String(cString: $0) } }
    }
}

func seconds(_ d: Duration) -> Double {
    let c = d.components
    return Double(c.seconds) + Double(c.attoseconds) / 1e18
}

func milliseconds(_ s: Double) -> String {
    let ms = s * 1000
    return ms >= 100 ? "\(Int(ms.rounded())) ms" : "\((ms * 10).rounded() / 10) ms"
}

import CCellHostABI
import CellKit
import Glibc

/// Checks everything a descriptor points to against plugin.h before the host relies on it:
/// struct headers (size and version) before reading past them, well-formed and unique ids and
/// names, encodings that parse, required functions present. Every refusal names the offending
/// type, property or action.
struct DescriptorValidator {
    let path: String
    let cache: FFISignatureCache
    /// Every read of plugin memory goes through this (see `ProbedMemory`).
    let memory: ProbedMemory

    private func fail(_ why: String) -> PluginLoadError { PluginLoadError(path: path, reason: .invalidDescriptor(why)) }

    /// "com.example.thing": two or more dot-separated labels of ASCII letters, digits, '-' and
    /// '_', the first starting with a letter. Checked on UTF-8 bytes: any non-ASCII byte refuses.
    static func isReverseDNS(_ id: String) -> Bool {
        var labels = 0, labelLength = 0
        for byte in id.utf8 {
            if byte == UInt8(ascii: ".") {
                guard labelLength > 0 else { return false }
                labels += 1
                labelLength = 0
                continue
            }
            guard byte.isASCIILetterOrDigit || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") else { return false }
            if labels == 0 && labelLength == 0 && !byte.isASCIILetter { return false }
            labelLength += 1
        }
        return labelLength > 0 && labels >= 1
    }

    /// A property or action name: [A-Za-z_][A-Za-z0-9_]*, dotted segments allowed.
    static func isIdentifier(_ name: String) -> Bool {
        var segmentLength = 0
        for byte in name.utf8 {
            if byte == UInt8(ascii: ".") {
                guard segmentLength > 0 else { return false }
                segmentLength = 0
                continue
            }
            let allowed = byte == UInt8(ascii: "_") || (segmentLength == 0 ? byte.isASCIILetter : byte.isASCIILetterOrDigit)
            guard allowed else { return false }
            segmentLength += 1
        }
        return segmentLength > 0
    }

    /// `field` names the string in a refusal; it is built only then.
    func string(_ pointer: UnsafePointer<CChar>?, _ field: @autoclosure () -> String,
                required: Bool) throws(PluginLoadError) -> String? {
        guard let pointer else {
            if required { throw fail("\(field()) is NULL") }
            return nil
        }
        let value = try boundedString(pointer, field())
        if required && value.isEmpty { throw fail("\(field()) is empty") }
        return value
    }

    /// The longest descriptor string the host reads, in bytes before the NUL.
    static let maximumStringBytes = 4096

    /// The string at `pointer`, read a page at a time and never past its NUL, the first unreadable
    /// page or `maximumStringBytes`: one probed byte shows a page is mapped (pages are mapped
    /// whole), then `strnlen` stops at the NUL within it. A string without a NUL within those is
    /// refused, naming `field`, instead of being read past its end.
    private func boundedString(_ pointer: UnsafePointer<CChar>, _ field: @autoclosure () -> String) throws(PluginLoadError) -> String {
        let limit = Self.maximumStringBytes
        var count = 0
        while count <= limit {
            let address = pointer + count
            let chunk = min(4096 - Int(UInt(bitPattern: address) % 4096), limit + 1 - count)
            var first: CChar = 0
            guard memory.read(address, into: &first) else {
                throw fail(count == 0 ? "\(field()) points to unreadable memory"
                           : "\(field()) has no terminating NUL before unreadable memory (\(count) bytes in)")
            }
            let length = strnlen(address, chunk)
            if length < chunk { return String(abiBytes: pointer, length: count + length) }
            count += chunk
        }
        throw fail("\(field()) has no terminating NUL within \(limit) bytes")
    }

    /// Reads a `T` that starts with a `cellhost_header`, checking the header first. A struct that
    /// later minor versions grew may be as short as `minimumSize` (its size in ABI 1.0): the
    /// fields past its struct_size read as zero, as the versioning rule says.
    func readStruct<T>(_ pointer: UnsafeRawPointer?, as _: T.Type, minimumSize: Int = MemoryLayout<T>.size,
                       _ what: @autoclosure () -> String) throws(PluginLoadError) -> T {
        guard let pointer else { throw fail("\(what()) is NULL") }
        var header = cellhost_header()
        guard memory.read(pointer, into: &header) else {
            throw fail("\(what()) points to unreadable memory")
        }
        let host = PluginLoader.hostVersion
        guard header.abi_major == host.major, header.abi_minor <= host.minor else {
            throw PluginLoadError(path: path, reason: .incompatibleVersion(
                plugin: "\(header.abi_major).\(header.abi_minor)", host: "\(host.major).\(host.minor)"))
        }
        let needed = header.abi_minor == 0 ? minimumSize : MemoryLayout<T>.size
        guard header.struct_size >= needed, header.struct_size <= PluginLoader.maximumStructSize else {
            throw fail("\(what()) has struct_size \(header.struct_size); ABI \(header.abi_major).\(header.abi_minor) needs \(needed)")
        }
        let known = min(Int(header.struct_size), MemoryLayout<T>.size)
        let read: T? = withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { value in
            let bytes = UnsafeMutableRawPointer(value.baseAddress!)
            bytes.initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<T>.size)
            guard memory.read(pointer, into: bytes, count: known) else { return nil }
            return value.baseAddress!.move()
        }
        guard let read else { throw fail("\(what()) runs into unreadable memory") }
        return read
    }

    func types(_ d: cellhost_plugin_descriptor, pluginID: String,
               taken: [String: String]) throws(PluginLoadError) -> [PluginConfigurationType] {
        guard d.type_count >= 1 else { throw fail("it declares no configuration types (type_count is 0)") }
        guard d.type_count <= PluginLoader.maximumCount else { throw fail("type_count \(d.type_count) is not plausible") }
        guard let list = d.types else { throw fail("types is NULL but type_count is \(d.type_count)") }
        var result: [PluginConfigurationType] = []
        var seen = Set<String>()
        for i in 0..<Int(d.type_count) {
            var entry: UnsafePointer<cellhost_config_type>?
            guard memory.read(list + i, into: &entry) else {
                throw fail("types[\(i)] lies in unreadable memory")
            }
            let t = try readStruct(entry, as: cellhost_config_type.self,
                                   minimumSize: MemoryLayout<cellhost_config_type>.offset(of: \.flags)!, "types[\(i)]")
            let id = try string(t.type_id, "types[\(i)].type_id", required: true)!
            guard DescriptorValidator.isReverseDNS(id) else {
                throw fail("type_id \"\(id)\" is not a reverse-DNS identifier such as com.example.badge")
            }
            guard seen.insert(id).inserted else { throw fail("type_id \"\(id)\" is declared twice") }
            if BuiltInTypeIdentifiers.all.contains(id) {
                throw fail("type_id \"\(id)\" is a type built into the host; a plugin's types need ids of their own")
            }
            if let other = taken[id] {
                throw PluginLoadError(path: path, reason: .duplicateTypeIdentifier(id, alreadyIn: other))
            }
            result.append(try configurationType(t, descriptor: entry!, id: id, pluginID: pluginID))
        }
        return result
    }

    private func configurationType(_ t: cellhost_config_type, descriptor: UnsafePointer<cellhost_config_type>, id: String,
                                   pluginID: String) throws(PluginLoadError) -> PluginConfigurationType {
        var missing: [String] = []
        if t.make_default == nil { missing.append("make_default") }
        if t.copy == nil { missing.append("copy") }
        if t.destroy == nil { missing.append("destroy") }
        if t.equal == nil { missing.append("equal") }
        if t.updated_for_state == nil { missing.append("updated_for_state") }
        if t.is_customized == nil { missing.append("is_customized") }
        guard missing.isEmpty else { throw fail("type \(id) lacks required function(s) \(missing.joined(separator: ", "))") }
        let unknownFlags = t.flags & ~UInt32(CELLHOST_CONFIG_PURE_RESTYLE)
        guard unknownFlags == 0 else {
            throw fail("type \(id)'s flags 0x\(String(t.flags, radix: 16)) set bits ABI \(PluginLoader.hostVersion.major).\(PluginLoader.hostVersion.minor) does not define (0x\(String(unknownFlags, radix: 16)))")
        }
        let v = try readStruct(t.view_type, as: cellhost_view_type.self, "type \(id)'s view_type")
        var missingView: [String] = []
        if v.make == nil { missingView.append("make") }
        if v.supports == nil { missingView.append("supports") }
        if v.set_configuration == nil { missingView.append("set_configuration") }
        if v.size_that_fits == nil { missingView.append("size_that_fits") }
        if v.draw == nil { missingView.append("draw") }
        if v.destroy == nil { missingView.append("destroy") }
        guard missingView.isEmpty else {
            throw fail("type \(id)'s view_type lacks required function(s) \(missingView.joined(separator: ", "))")
        }
        let displayName = try string(t.display_name, "type \(id)'s display_name", required: false)
        return PluginConfigurationType(typeIdentifier: id, displayName: displayName, pluginID: pluginID,
                                       properties: try properties(t, id: id), actions: try actions(t, id: id),
                                       type: t, descriptor: descriptor, view: v)
    }

    /// Walks an array of header-led structs with the stride of its first element's struct_size.
    private func elements<T>(_ base: UnsafePointer<T>?, count: UInt32, as _: T.Type, _ what: @autoclosure () -> String)
        throws(PluginLoadError) -> [(T, UnsafePointer<T>)]
    {
        guard count > 0 else { return [] }
        guard count <= PluginLoader.maximumCount else { throw fail("\(what()) count \(count) is not plausible") }
        guard let base else { throw fail("\(what()) is NULL but its count is \(count)") }
        let first = try readStruct(base, as: T.self, "\(what())[0]")
        let stride = Int(withUnsafeBytes(of: first) { $0.load(as: cellhost_header.self) }.struct_size)
        var result = [(first, base)]
        result.reserveCapacity(Int(count))
        for i in 1..<Int(count) {
            let pointer = UnsafeRawPointer(base).advanced(by: i * stride).assumingMemoryBound(to: T.self)
            result.append((try readStruct(pointer, as: T.self, "\(what())[\(i)]"), pointer))
        }
        return result
    }

    private func properties(_ t: cellhost_config_type, id: String) throws(PluginLoadError) -> [PluginProperty] {
        var names = Set<String>()
        var result: [PluginProperty] = []
        for (p, pointer) in try elements(t.properties, count: t.property_count, as: cellhost_property.self,
                                         "type \(id)'s properties") {
            let name = try string(p.name, "a property name of \(id)", required: true)!
            guard DescriptorValidator.isIdentifier(name) else { throw fail("type \(id) has a property named \"\(name)\", which is not an identifier") }
            guard names.insert(name).inserted else { throw fail("type \(id) declares property \(name) twice") }
            let encodingText = try string(p.encoding, "property \(id).\(name)'s encoding", required: true)!
            let encoding: ValueEncoding
            do { encoding = try ValueEncoding.parseSingle(encodingText) } catch {
                throw fail("property \(id).\(name): \(error.description)")
            }
            guard let getter = p.getter else { throw fail("property \(id).\(name) has no getter") }
            result.append(PluginProperty(name: name, encoding: encoding, getter: getter, setter: p.setter,
                                         descriptor: pointer, cache: cache))
        }
        return result
    }

    private func actions(_ t: cellhost_config_type, id: String) throws(PluginLoadError) -> [PluginAction] {
        var names = Set<String>()
        var result: [PluginAction] = []
        for (a, pointer) in try elements(t.actions, count: t.action_count, as: cellhost_action.self,
                                         "type \(id)'s actions") {
            let name = try string(a.name, "an action name of \(id)", required: true)!
            guard DescriptorValidator.isIdentifier(name) else { throw fail("type \(id) has an action named \"\(name)\", which is not an identifier") }
            guard names.insert(name).inserted else { throw fail("type \(id) declares action \(name) twice") }
            let encodingText = try string(a.encoding, "action \(id).\(name)'s encoding", required: false) ?? ""
            let arguments: [ValueEncoding]
            do { arguments = try ValueEncoding.parseList(encodingText) } catch {
                throw fail("action \(id).\(name): \(error.description)")
            }
            guard let function = a.function else { throw fail("action \(id).\(name) has no function") }
            var argumentNames = (try string(a.argument_names, "action \(id).\(name)'s argument_names", required: false))
                .map(Self.argumentNames) ?? []
            if argumentNames.isEmpty { argumentNames = arguments.indices.map { "arg\($0 + 1)" } }
            guard argumentNames.count == arguments.count else {
                throw fail("action \(id).\(name) names \(argumentNames.count) argument(s) but its encoding \"\(encodingText)\" has \(arguments.count)")
            }
            result.append(PluginAction(name: name, arguments: arguments, argumentNames: argumentNames,
                                       function: function, descriptor: pointer, cache: cache))
        }
        return result
    }
}

extension DescriptorValidator {
    /// "by, animated" → ["by", "animated"]: comma-separated, spaces around each name dropped.
    /// ASCII text is split on bytes; other text by `Character`, as the rule is written.
    static func argumentNames(_ text: String) -> [String] {
        guard text.utf8.allSatisfy({ $0 < 0x80 }) else {
            return text.split(separator: ",").map { $0.trimmingCharacters() }
        }
        return text.utf8.split(separator: UInt8(ascii: ",")).map { name in
            var start = name.startIndex, end = name.endIndex
            while start < end && name[start] == UInt8(ascii: " ") { start = name.index(after: start) }
            while end > start && name[name.index(before: end)] == UInt8(ascii: " ") { end = name.index(before: end) }
            return String(Substring(name[start..<end]))
        }
    }
}

private extension Substring {
    func trimmingCharacters() -> String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}

private extension UInt8 {
    var isASCIILetter: Bool { (self | 0x20) >= UInt8(ascii: "a") && (self | 0x20) <= UInt8(ascii: "z") }
    var isASCIILetterOrDigit: Bool { isASCIILetter || (self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9")) }
}

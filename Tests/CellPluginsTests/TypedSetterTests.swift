@testable import CellPlugins
import CellKit
import Glibc
import CellTestSupport
import Testing

/// The typed setters and the lazily prepared cifs: a typed set must leave the configuration
/// exactly as the generic `PropertyValue` set does, refuse what the generic set refuses, and stay
/// correct when several threads set the same property on different configurations.
@Suite struct TypedSetterTests {
    static let registry = PluginRegistry()

    func progressType() throws -> PluginConfigurationType {
        let plugin = try Self.registry.load(BuiltProducts.samplePlugin("ProgressMeter"))
        return try #require(plugin.type("com.cellhost.samples.progress"))
    }

    func property(_ name: String) throws -> PluginProperty {
        try #require(try progressType().property(named: name))
    }

    func fresh() throws -> PluginConfiguration { try #require(try progressType().makeDefault()) }

    @Test func typedSetsEqualTheGenericSet() throws {
        let tint = Color(red: 0.5, green: 0.25, blue: 1, alpha: 0.75)
        let cases: [(String, PropertyValue, (PluginProperty, OpaquePointer) throws(ConfigurationPropertyError) -> Void)] = [
            ("style", .int(1), { p, h throws(ConfigurationPropertyError) in try p.set(int64: 1, on: h) }),
            ("style", .int(0), { p, h throws(ConfigurationPropertyError) in try p.set(int64: 0, on: h) }),
            ("progress", .double(0.625), { p, h throws(ConfigurationPropertyError) in try p.set(double: 0.625, on: h) }),
            ("showsPercentage", .bool(false), { p, h throws(ConfigurationPropertyError) in try p.set(bool: false, on: h) }),
            ("showsPercentage", .bool(true), { p, h throws(ConfigurationPropertyError) in try p.set(bool: true, on: h) }),
            ("tint", .color(tint), { p, h throws(ConfigurationPropertyError) in try p.set(color: tint, on: h) }),
            // A dynamic colour crosses as its light appearance on both paths.
            ("tint", .color(.systemRed), { p, h throws(ConfigurationPropertyError) in try p.set(color: .systemRed, on: h) }),
        ]
        for (name, value, typedSet) in cases {
            let typed = try fresh(), generic = try fresh()
            let property = try property(name)
            try typedSet(property, typed.handle)
            try property.set(value, on: generic.handle)
            #expect(typed.inspectableProperties == generic.inspectableProperties, "\(name) = \(value)")
            #expect(typed == generic, "\(name) = \(value): the plugin's equal agrees")
            #expect(typed.inspectableProperties != (try fresh().inspectableProperties), "\(name) = \(value) was written")
        }
    }

    @Test func typedSetsRefuseAnotherEncodingLikeTheGenericSet() throws {
        let config = try fresh()
        let progress = try property("progress"), style = try property("style")
        #expect(throws: ConfigurationPropertyError.typeMismatch(property: "progress", expected: "double", got: "int")) {
            try progress.set(int64: 1, on: config.handle)
        }
        #expect(throws: ConfigurationPropertyError.typeMismatch(property: "style", expected: "int", got: "double")) {
            try style.set(double: 1, on: config.handle)
        }
        #expect(throws: ConfigurationPropertyError.typeMismatch(property: "style", expected: "int", got: "double")) {
            try style.set(.double(1), on: config.handle)
        }
        #expect(throws: ConfigurationPropertyError.typeMismatch(property: "style", expected: "int", got: "bool")) {
            try style.set(bool: true, on: config.handle)
        }
        #expect(throws: ConfigurationPropertyError.typeMismatch(property: "style", expected: "int", got: "color")) {
            try style.set(color: .systemRed, on: config.handle)
        }
        #expect(try config.value(of: "style") == (try fresh().value(of: "style")), "nothing was written")
    }

    @Test func readOnlyPropertyRefusesEverySet() throws {
        var source = TestPluginSource()
        source.pluginID = "com.test.readonly"
        source.typeID = "com.test.readonly.cell"
        let text = source.text.replacingFirst("(cellhost_fn)set_value", with: "NULL")
        let path = try PluginCompiler.compile(source: text, name: "readonly", extraFlags: "-Wno-unused-function")
        let type = try #require(try PluginRegistry().load(path).types.first)
        let property = try #require(type.property(named: "value"))
        let config = try #require(type.makeDefault())
        #expect(property.isReadOnly)
        let refusal = ConfigurationPropertyError.invalidValue(property: "value", reason: "the property is read-only")
        #expect(throws: refusal) { try property.set(int64: 3, on: config.handle) }
        #expect(throws: refusal) { try property.set(.int(3), on: config.handle) }
        #expect(throws: refusal) { try property.set(.string("x"), on: config.handle) }
        #expect(property.value(of: config.handle) == .int(0))
    }

    /// Texts for a plugin are held to the host's own bound on both paths: the host would refuse
    /// to measure or draw a longer one for the plugin later, in the middle of a run.
    @Test func textsBeyondTheHostsBoundAreRefusedBeforeThePluginSeesThem() throws {
        let config = try fresh(), title = try property("title")
        let longest = String(repeating: "a", count: ValueBounds.textBytes)
        try title.set(.string(longest), on: config.handle)
        #expect(title.value(of: config.handle) == .string(longest))
        let refusal = ConfigurationPropertyError.invalidValue(property: "title", reason: ValueBounds.textProblem(bytes: longest.utf8.count + 1)!)
        #expect(throws: refusal) { try title.set(.string(longest + "b"), on: config.handle) }
        #expect(throws: refusal) { try title.setThroughFFI(.string(longest + "b"), on: config.handle) }
        #expect(title.value(of: config.handle) == .string(longest), "nothing was written")
    }

    /// The argument frame is per call: threads setting one property on their own configurations
    /// never see each other's values.
    @Test func concurrentSetsOnDifferentConfigurationsStayApart() async throws {
        let progress = try property("progress"), minimumSize = try property("minimumSize")
        let configs = try (0..<4).map { _ in try fresh() }
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for (k, config) in configs.enumerated() {
                group.addTask {
                    var wrong = 0
                    for i in 0..<5_000 {
                        // progress is clamped to 0…1 by the plugin: each thread keeps its own eighth.
                        let value = Double(k) / 8 + Double(i) / 1e7, size = Size(width: Double(i), height: Double(k))
                        try? progress.set(double: value, on: config.handle)
                        try? minimumSize.set(.size(size), on: config.handle)
                        if progress.value(of: config.handle) != .double(value) { wrong += 1 }
                        if minimumSize.value(of: config.handle) != .size(size) { wrong += 1 }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }

    /// Getters and setters are called as typed C functions: only their libffi path (validate's)
    /// and actions prepare cifs.
    @Test func loadingPreparesNoCifAndEachSignatureIsPreparedOnceOnFirstCall() throws {
        let copy = "\(BuiltProducts.temporaryDirectory(prefix: "cellplugins-test"))/lazy.so"
        #expect(system("cp '\(BuiltProducts.samplePlugin("ProgressMeter"))' '\(copy)'") == 0)
        let cache = FFISignatureCache()
        let plugin = try PluginLoader.load(path: copy, takenTypeIdentifiers: [:], cache: cache)
        #expect(cache.preparedSignatures.isEmpty, "load prepares nothing")
        let type = try #require(plugin.types.first)
        let config = try #require(type.makeDefault())
        let style = try #require(type.property(named: "style"))
        try style.set(int64: 1, on: config.handle)
        try style.set(.int(0), on: config.handle)
        #expect(style.value(of: config.handle) == .int(0))
        #expect(cache.preparedSignatures.isEmpty, "typed calls prepare nothing")
        try style.setThroughFFI(.int(1), on: config.handle)
        #expect(cache.preparedSignatures == [.setter(.int64)])
        let first = try cache.cif(for: .setter(.int64))
        try style.setThroughFFI(.int(0), on: config.handle)
        #expect(style.valueThroughFFI(of: config.handle) == .int(0))
        #expect(cache.preparedSignatures == [.setter(.int64), .getter(.int64)])
        #expect(try cache.cif(for: .setter(.int64)) == first, "the same cif serves every later call")
        _ = try config.performing("advance", arguments: [.double(0.5), .bool(false)])
        #expect(cache.preparedSignatures.contains(.action([.double, .bool])))
    }
}

extension String {
    /// `self` with the first occurrence of `target` replaced.
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return String(self[..<range.lowerBound]) + replacement + String(self[range.upperBound...])
    }

    /// The first range of `target` in `self`, compared by UTF-8 bytes.
    func range(of target: String) -> Range<String.Index>? {
        let bytes = Array(utf8), needle = Array(target.utf8)
        guard !needle.isEmpty, needle.count <= bytes.count else { return nil }
        for start in 0...(bytes.count - needle.count) where Array(bytes[start..<start + needle.count]) == needle {
            let lower = utf8.index(utf8.startIndex, offsetBy: start)
            return lower..<utf8.index(lower, offsetBy: needle.count)
        }
        return nil
    }
}

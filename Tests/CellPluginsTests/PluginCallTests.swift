import CellKit
import CellPlugins
import Glibc
import CellTestSupport
import Testing

/// What keeps plugin calls cheap, as behaviour: one prepared cif per call signature, a fresh
/// load that maps and describes the plugin, and a set through the cached cif that reaches the C
/// setter exactly as a direct call does. The timings themselves are `cellhost-bench` figures.
@Suite struct PluginCallTests {
    /// A private copy of the sample, so dlopen really maps and relocates it.
    func freshCopy(_ tag: String) throws -> String {
        let source = BuiltProducts.samplePlugin("ProgressMeter")
        let path = "\(BuiltProducts.temporaryDirectory(prefix: "cellplugins-test"))/\(tag).so"
        #expect(system("cp '\(source)' '\(path)'") == 0)
        return path
    }

    @Test func cifCacheHandsOutOnePreparedCifPerSignature() throws {
        let cache = FFISignatureCache()
        let a = try cache.cif(for: .setter(.color))
        let b = try cache.cif(for: .setter(.color))
        let c = try cache.cif(for: .setter(.size))
        #expect(a == b)
        #expect(a != c)
        #expect(a.pointee.nargs == 3)
        #expect(a.pointee.rtype.pointee.size == 1, "void return")
        #expect(c.pointee.arg_types[2]!.pointee.size == 16, "{Size=dd} is 16 bytes by value")
    }

    @Test func freshCopyLoadsAndDescribesItsType() throws {
        let plugin = try PluginRegistry().load(try freshCopy("fresh"))
        #expect(plugin.types.map(\.typeIdentifier) == ["com.cellhost.samples.progress"])
        #expect(plugin.loadDuration > .zero, "the loader records what loading cost")
    }

    @Test func cachedFFISetterReachesTheSetterLikeADirectCall() throws {
        let plugin = try PluginRegistry().load(try freshCopy("setter"))
        let type = try #require(plugin.types.first)
        let config = try #require(type.makeDefault())
        let property = try #require(type.property(named: "style"))
        typealias Int64Setter = @convention(c) (OpaquePointer?, UnsafeRawPointer?, Int64) -> Void
        let direct = unsafeBitCast(try #require(property.setter), to: Int64Setter.self)

        direct(config.handle, UnsafeRawPointer(property.descriptor), 1)
        #expect(try config.value(of: "style") == .int(1))
        for value: Int64 in [0, 1, 0] {
            try property.set(.int(value), on: config.handle)
            #expect(try config.value(of: "style") == .int(value))
        }
    }
}

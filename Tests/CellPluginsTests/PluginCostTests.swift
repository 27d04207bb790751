import CellKit
import CellPlugins
import Glibc
import Testing

/// What plugins cost: loading vs a bare dlopen, a property set through the cached cif vs a
/// direct C call, and what the cif cache saves. Figures are printed for the record.
@Suite struct PluginCostTests {
    static func nanoseconds(_ d: Duration) -> Double {
        Double(d.components.seconds) * 1e9 + Double(d.components.attoseconds) / 1e9
    }

    /// A private copy of the sample, so dlopen really maps and relocates it.
    func freshCopy(_ tag: String) throws -> String {
        let source = PluginFixtures.sample("ProgressMeter")
        let path = "\(PluginFixtures.temporaryDirectory())/\(tag).so"
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

    @Test func loadTimeVersusBareDlopen() throws {
        let rounds = 5
        var bare: Double = 0, full: Double = 0
        let clock = ContinuousClock()
        for i in 0..<rounds {
            let barePath = try freshCopy("bare\(i)")
            let start = clock.now
            let handle = dlopen(barePath, RTLD_NOW | RTLD_LOCAL)
            bare += Self.nanoseconds(clock.now - start)
            #expect(handle != nil)

            let fullPath = try freshCopy("full\(i)")
            let fullStart = clock.now
            let plugin = try PluginRegistry().load(fullPath)
            full += Self.nanoseconds(clock.now - fullStart)
            #expect(plugin.types.count == 1)
        }
        print("plugin load (file checks + dlopen + validate + cifs + init): \(Int(full / Double(rounds) / 1000)) µs; "
              + "bare dlopen: \(Int(bare / Double(rounds) / 1000)) µs (mean of \(rounds))")
        #expect(full / Double(rounds) < 100_000_000, "load + describe stays under the 100 ms budget")
    }

    @Test func cachedFFISetterVersusDirectCall() throws {
        let plugin = try PluginRegistry().load(try freshCopy("setter"))
        let type = try #require(plugin.types.first)
        let config = try #require(type.makeDefault())
        let property = try #require(type.property(named: "style"))
        let iterations = 200_000
        typealias Int64Setter = @convention(c) (OpaquePointer?, UnsafeRawPointer?, Int64) -> Void
        let direct = unsafeBitCast(try #require(property.setter), to: Int64Setter.self)
        let clock = ContinuousClock()

        var start = clock.now
        for i in 0..<iterations { direct(config.handle, UnsafeRawPointer(property.descriptor), Int64(i & 1)) }
        let directNs = Self.nanoseconds(clock.now - start) / Double(iterations)

        start = clock.now
        for i in 0..<iterations { try property.set(.int(Int64(i & 1)), on: config.handle) }
        let ffiNs = Self.nanoseconds(clock.now - start) / Double(iterations)
        #expect(try config.value(of: "style") == .int(1))

        let prepareNs = FFISignatureCache.timeUncachedPrepare(.setter(.int64), iterations: iterations)
        print("int64 setter: direct call \(String(format2: directNs)) ns, ffi_call with cached cif "
              + "\(String(format2: ffiNs)) ns, ffi_prep_cif alone (what the cache saves per call) \(String(format2: prepareNs)) ns")
        #expect(directNs > 0 && ffiNs > 0 && prepareNs > 0)
    }
}

extension String {
    init(format2 value: Double) {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        self = "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}

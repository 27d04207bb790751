import CCellHostABI
import CellKit
import CellPlugins
import Glibc

/// Checks that repeat and randomise: memory stays flat over many lifecycles, hostile states and
/// values never crash the plugin, and no single call takes long.
enum StressChecks {
    static let memoryCycles = 1000, memoryWarmUp = 200
    static let memoryGrowthLimit = 2 << 20
    static let fuzzIterations = 400
    static let callLimitSeconds = 0.1

    /// make_default → set → updated_for_state → make view → size → draw → set_configuration → destroy.
    static func lifecycle(_ type: PluginConfigurationType, _ i: Int, _ r: CheckRecorder) {
        guard var c = type.makeDefault() else { return }
        let property = type.properties.first { !$0.isReadOnly }
        let samples = property.map { SampleValues.ordinary($0.encoding) } ?? []
        if let p = property { try? c.set(p.name, to: samples[i % samples.count]) }
        let state = SampleValues.ordinaryStates[i % SampleValues.ordinaryStates.count]
        let updated = c.updated(for: state)
        let view = PluginContentView(configuration: updated)
        r.checkSize(view, "\(type.typeIdentifier) in cycle #\(i)"
                    + (property.map { ", \($0.name) = \(ConfigurationChecks.describe(samples[i % samples.count]))" } ?? "")
                    + ", updated for \(ConfigurationChecks.stateSummary(state))")
        _ = ViewChecks.drawing(view)
        view.configuration = c
    }

    static func lifecycleMemory(_ r: CheckRecorder) {
        guard let plugin = r.plugin() else { return }
        for type in plugin.types {
            r.step("\(type.typeIdentifier): \(memoryWarmUp) warm-up cycles")
            for i in 0..<memoryWarmUp { lifecycle(type, i, r) }
            r.step("\(type.typeIdentifier): \(memoryCycles) measured cycles")
            let gauge = MemoryGauge.current
            let before = gauge.bytes()
            for i in 0..<memoryCycles { lifecycle(type, i, r) }
            let growth = gauge.bytes() - before
            let text = "\(type.typeIdentifier): \(gauge.quantity) grew \(mebibytes(growth)) over \(memoryCycles) "
                + "create/update/view/draw/destroy cycles"
            if growth > memoryGrowthLimit {
                r.fail(text + " (\(growth / memoryCycles) bytes a cycle): something is not freed")
            } else {
                r.note(text)
            }
        }
    }

    static func fuzzStates(_ r: CheckRecorder) {
        guard let plugin = r.plugin() else { return }
        r.note("\(fuzzIterations) random states a type, seed \(r.seed)")
        for type in plugin.types {
            guard let base = type.makeDefault() else { r.fail("\(type.typeIdentifier): make_default returned NULL"); continue }
            let view = PluginContentView(configuration: base)
            for i in 0..<fuzzIterations {
                let state = SampleValues.randomState(using: &r.random)
                let summary = "\(type.typeIdentifier): state #\(i) (\(ConfigurationChecks.stateSummary(state)))"
                r.step(summary)
                let updated = base.updated(for: state)
                let applied = updated.cellUpdateHookResult(for: state) ?? updated
                if view.supports(applied) { view.configuration = applied }
                let width = [0, 1, 320, 1e6].randomElement(using: &r.random)!
                let context = CheckRecorder.layoutContext(state.traitCollection)
                r.checkSize(view, summary, width: width, traits: state.traitCollection)
                var list = DisplayList()
                view.draw(in: Rect(x: 0, y: 0, width: width, height: 44), context: context, into: &list)
                _ = applied.inspectableProperties
            }
        }
    }

    static func fuzzValues(_ r: CheckRecorder) {
        guard let plugin = r.plugin() else { return }
        r.note("\(fuzzIterations) hostile values a type (NaN, infinities, extremes, empty, huge and invalid UTF-8 strings), seed \(r.seed); sizes judged after values a stream could send")
        for type in plugin.types {
            let settable = type.properties.filter { !$0.isReadOnly }
            guard !settable.isEmpty || !type.actions.isEmpty else { continue }
            for i in 0..<fuzzIterations {
                guard var c = type.makeDefault() else { r.fail("\(type.typeIdentifier): make_default returned NULL"); break }
                let what: String, reachable: Bool
                if !settable.isEmpty && (type.actions.isEmpty || Bool.random(using: &r.random)) {
                    let p = settable.randomElement(using: &r.random)!
                    if p.encoding == .string {
                        let (name, bytes) = SampleValues.hostileString(using: &r.random)
                        what = "\(p.name) = \(name)"
                        reachable = bytes.count - 1 <= ValueBounds.textBytes && String(validating: bytes.dropLast(), as: UTF8.self) != nil
                        r.step("\(type.typeIdentifier): #\(i) \(what)")
                        setRawString(bytes, property: p, on: c)
                    } else {
                        let value = SampleValues.hostile(p.encoding, using: &r.random)
                        what = "\(p.name) = \(ConfigurationChecks.describe(value))"
                        reachable = SampleValues.isStreamReachable(value)
                        r.step("\(type.typeIdentifier): #\(i) \(what)")
                        try? c.set(p.name, to: value)
                    }
                } else {
                    let action = type.actions.randomElement(using: &r.random)!
                    let arguments = action.arguments.map { SampleValues.hostile($0, using: &r.random) }
                    what = "\(action.name)(\(arguments.map(ConfigurationChecks.describe).joined(separator: ", ")))"
                    reachable = arguments.allSatisfy(SampleValues.isStreamReachable)
                    r.step("\(type.typeIdentifier): #\(i) \(what)")
                    if let done = try? c.performing(action.name, arguments: arguments) { c = done }
                }
                r.step("\(type.typeIdentifier): #\(i) reading, restyling and drawing the result")
                _ = c.inspectableProperties
                let updated = c.updated(for: SampleValues.ordinaryStates[i % SampleValues.ordinaryStates.count])
                let view = PluginContentView(configuration: updated)
                // Every hostile value must be survived; the size is judged, as a run judges it,
                // after values an event stream could send (a run would end on a bad size there).
                if reachable {
                    r.checkSize(view, "\(type.typeIdentifier) after \(what)")
                } else {
                    _ = ViewChecks.size(view)
                }
                _ = ViewChecks.drawing(view)
            }
        }
    }

    /// Calls a `*` setter with raw bytes, which a Swift string cannot hold when they are not UTF-8.
    /// `c` was just made and is owned alone, so it may be mutated in place.
    static func setRawString(_ bytes: [UInt8], property p: PluginProperty, on c: PluginConfiguration) {
        typealias Setter = @convention(c) (OpaquePointer?, UnsafePointer<cellhost_property>?, UnsafePointer<CChar>?) -> Void
        guard let setter = p.setter else { return }
        let function = unsafeBitCast(setter, to: Setter.self)
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { function(c.handle, p.descriptor, $0.baseAddress) }
        }
    }

    static func callDuration(_ r: CheckRecorder) {
        guard let plugin = r.plugin() else { return }
        var slowest: (String, Double) = ("", 0)
        var slow: [String] = []
        func time(_ name: String, _ body: () -> Void) {
            r.step(name)
            let start = ContinuousClock.now
            body()
            let s = seconds(ContinuousClock.now - start)
            if s > slowest.1 { slowest = (name, s) }
            if s > callLimitSeconds { slow.append("\(name) took \(milliseconds(s))") }
        }
        for type in plugin.types {
            let id = type.typeIdentifier
            var base: PluginConfiguration?
            time("\(id): make_default") { base = type.makeDefault() }
            guard var c = base else { r.fail("\(id): make_default returned NULL"); continue }
            for p in type.properties {
                time("\(id): get \(p.name)") { _ = p.value(of: c.handle) }
                if !p.isReadOnly, let value = SampleValues.ordinary(p.encoding).first {
                    time("\(id): copy + set \(p.name)") { c = (try? c.setting(p.name, to: value)) ?? c }
                }
            }
            time("\(id): is_customized (every property)") { _ = c.inspectableProperties }
            var updated = c
            time("\(id): updated_for_state") { updated = c.updated(for: CellConfigurationState(isSelected: true)) }
            time("\(id): equal") { _ = updated == c }
            var view: PluginContentView?
            time("\(id): view make") { view = PluginContentView(configuration: c) }
            guard let view else { continue }
            time("\(id): view supports") { _ = view.supports(updated) }
            time("\(id): view set_configuration") { view.configuration = updated }
            time("\(id): view size_that_fits") { r.checkSize(view, "\(id) with every property set, updated for selected") }
            time("\(id): view draw") { _ = ViewChecks.drawing(view) }
        }
        if slow.isEmpty {
            r.note("slowest call: \(slowest.0), \(milliseconds(slowest.1)) (limit \(milliseconds(callLimitSeconds)))")
        } else {
            r.fail("calls above the \(milliseconds(callLimitSeconds)) limit: " + slow.joined(separator: "; "))
        }
    }

    static func mebibytes(_ bytes: Int) -> String {
        "\((Double(bytes) / 1_048_576 * 100).rounded() / 100) MiB"
    }
}

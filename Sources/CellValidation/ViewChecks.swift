import CellKit
import CellPlugins

/// Checks of content views: reuse gives what replacement would, and equal inputs draw equal lists.
enum ViewChecks {
    static let bounds = Rect(x: 0, y: 0, width: 390, height: 64)

    static func drawing(_ view: PluginContentView, traits: TraitCollection = .default) -> DisplayList {
        var list = DisplayList()
        view.draw(in: bounds, context: CheckRecorder.layoutContext(traits), into: &list)
        return list
    }

    static func size(_ view: PluginContentView) -> Size {
        view.sizeThatFits(Size(width: bounds.width, height: 0), context: CheckRecorder.layoutContext())
    }

    /// Configurations worth drawing: the default, each property customised, a few restyled states.
    static func variants(of type: PluginConfigurationType, _ r: CheckRecorder) -> [(String, PluginConfiguration)] {
        r.step("\(type.typeIdentifier): make_default")
        guard let base = type.makeDefault() else {
            r.fail("\(type.typeIdentifier): make_default returned NULL")
            return []
        }
        var result = [("the default", base)]
        for p in type.properties where !p.isReadOnly {
            r.step("\(type.typeIdentifier): setting \(p.name)")
            if let c = ConfigurationChecks.customize(base, p) { result.append(("\(p.name) set", c)) }
        }
        for state in SampleValues.ordinaryStates.prefix(4).dropFirst() {
            r.step("\(type.typeIdentifier): updated_for_state (\(ConfigurationChecks.stateSummary(state)))")
            result.append(("updated for \(ConfigurationChecks.stateSummary(state))", base.updated(for: state)))
        }
        return result
    }

    static func supportsConsistency(_ r: CheckRecorder) {
        guard let plugin = r.plugin() else { return }
        for type in plugin.types {
            let configurations = variants(of: type, r)
            guard let first = configurations.first?.1 else { continue }
            r.step("\(type.typeIdentifier): make view")
            let reused = PluginContentView(configuration: first)
            if !reused.supports(first) {
                r.fail("\(type.typeIdentifier): a view does not support the configuration it was made from")
                continue
            }
            for (name, c) in configurations.dropFirst() {
                r.step("\(type.typeIdentifier): supports(\(name))")
                guard reused.supports(c) else { continue }
                reused.configuration = c
                r.step("\(type.typeIdentifier): drawing \(name) in a reused and a new view")
                let fresh = PluginContentView(configuration: c)
                // An unusable size is reported once; comparing it would only repeat it.
                guard r.checkSize(reused, "\(type.typeIdentifier), \(name), in a reused view"),
                      r.checkSize(fresh, "\(type.typeIdentifier), \(name), in a new view") else { continue }
                let freshDrawing = drawing(fresh)
                // Drawing that differs between two identical calls is deterministic-drawing's to report.
                guard freshDrawing == drawing(fresh) else { continue }
                if drawing(reused) != freshDrawing || size(reused) != size(fresh) {
                    r.fail("\(type.typeIdentifier): supports() accepted \(name) but the reused view draws or sizes differently "
                           + "from a new view made with makeContentView(); it must either apply it fully or not support it")
                    break
                }
            }
        }
    }

    static func deterministicDrawing(_ r: CheckRecorder) {
        guard let plugin = r.plugin() else { return }
        for type in plugin.types {
            for (name, c) in variants(of: type, r) {
                r.step("\(type.typeIdentifier): drawing \(name) three times")
                let one = PluginContentView(configuration: c), two = PluginContentView(configuration: c)
                guard r.checkSize(one, "\(type.typeIdentifier), \(name)") else { continue }
                let a = drawing(one), b = drawing(one), d = drawing(two)
                if a != b || a != d {
                    r.fail("\(type.typeIdentifier): drawing \(name) twice with equal configuration, state and bounds gave "
                           + "different display lists (\(a.commands.count) vs \(a != b ? b.commands.count : d.commands.count) commands)")
                    break
                }
                if size(one) != size(two) {
                    r.fail("\(type.typeIdentifier): size_that_fits differs for equal configurations (\(name))")
                    break
                }
            }
        }
    }
}

import CellKit
import CellPlugins

/// The check of a type's actions with the arguments a stream would pass: fuzz-values calls them
/// with hostile values, which a careful action refuses before it does anything, so what an
/// action does with an ordinary argument is only seen here.
enum ActionChecks {
    /// Each action, with each ordinary value of its arguments (the i-th sample of every
    /// argument together), on the default configuration: it performs or refuses, and what it
    /// makes sizes usably, restyled for each ordinary state too.
    static func ordinaryArguments(_ r: CheckRecorder) {
        guard let plugin = r.plugin() else { return }
        let actions = plugin.types.reduce(0) { $0 + $1.actions.count }
        guard actions > 0 else { r.skip("no type declares an action"); return }
        var performed = 0, refused = 0
        for type in plugin.types where !type.actions.isEmpty {
            guard let base = type.makeDefault() else { r.fail("\(type.typeIdentifier): make_default returned NULL"); continue }
            for action in type.actions {
                let samples = action.arguments.map(SampleValues.ordinary)
                for i in 0..<(samples.map(\.count).max() ?? 1) {
                    let arguments = samples.map { $0[i % $0.count] }
                    let call = "\(type.typeIdentifier): \(action.name)(\(arguments.map(ConfigurationChecks.describe).joined(separator: ", ")))"
                    r.step(call)
                    guard let result = try? base.performing(action.name, arguments: arguments) else { refused += 1; continue }
                    performed += 1
                    guard r.checkSize(of: result, "the result of \(call)") else { continue }
                    for (j, state) in SampleValues.ordinaryStates.enumerated() {
                        let restyle = "the result of \(call) updated for state #\(j) (\(ConfigurationChecks.stateSummary(state)))"
                        r.step(restyle)
                        r.checkSize(of: result.updated(for: state), restyle)
                    }
                }
            }
        }
        r.note("\(actions) action(s): \(performed) call(s) performed, \(refused) refused")
    }
}

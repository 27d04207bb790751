import CellIO

/// What `cellhost validate` found: one result a check, in order, with the seed that replays it.
public struct ValidationReport: Sendable, Equatable {
    public var path: String
    public var seed: UInt64
    public var results: [CheckResult]

    public init(path: String, seed: UInt64, results: [CheckResult]) {
        self.path = path
        self.seed = seed
        self.results = results
    }

    public var hasProblems: Bool { results.contains { $0.outcome.isProblem } }

    /// Whether a check stopped on a bug in cellhost itself: the report is incomplete through no
    /// fault of the plugin's.
    public var hasHostError: Bool { results.contains { $0.outcome == .error } }

    public func count(_ outcome: CheckOutcome) -> Int { results.filter { $0.outcome == outcome }.count }

    /// One line a check (outcome, id, duration), its details indented below, as pluginval prints.
    public static func line(for result: CheckResult) -> String {
        let label = "[\(result.outcome.rawValue.uppercased())]".padding(9)
        var text = "\(label) \(result.check.padding(26)) \(milliseconds(result.duration))"
        for detail in result.details { text += "\n            " + detail }
        return text
    }

    /// The closing lines: totals and how to replay the random checks.
    public var summary: String {
        let counts = CheckOutcome.allCases.compactMap { o in count(o) > 0 ? "\(count(o)) \(o.rawValue)" : nil }
        return "\(results.count) check\(results.count == 1 ? "" : "s"): " + counts.joined(separator: ", ")
            + "\nseed \(seed) (replay the random checks with --seed \(seed))"
    }

    public var json: JSON {
        .object([("schema", .string("cellhost.validate/1")), ("plugin", .string(path)), ("seed", .string(String(seed))),
                 ("passed", .bool(!hasProblems)),
                 ("results", .array(results.map(\.json)))])
    }
}

private extension String {
    func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}

import CellIO

/// One line the validation worker sends to the supervisor: a step it is about to take, or the
/// check's result. Single-line JSON, so a record is never split.
enum WorkerMessage: Equatable {
    case step(String)
    case result(CheckResult)

    var line: String {
        switch self {
        case .step(let text):
            return JSON.object([("step", .string(text))]).serialized
        case .result(let r):
            return JSON.object([("result", r.json)]).serialized
        }
    }

    init?(line: String) {
        guard let json = try? JSON.parse(line) else { return nil }
        if let step = json["step"]?.stringValue {
            self = .step(step)
        } else if let result = json["result"].flatMap(CheckResult.init(json:)) {
            self = .result(result)
        } else {
            return nil
        }
    }
}

extension CheckResult {
    public var json: JSON {
        .object([("check", .string(check)), ("outcome", .string(outcome.rawValue)),
                 ("duration_ms", .double((duration * 1e5).rounded() / 100)),
                 ("details", .array(details.map { .string($0) }))])
    }

    init?(json: JSON) {
        guard let check = json["check"]?.stringValue, let outcome = json["outcome"]?.stringValue.flatMap(CheckOutcome.init),
              let ms = json["duration_ms"]?.doubleValue, let details = json["details"]?.arrayValue
        else { return nil }
        self.init(check: check, outcome: outcome, details: details.compactMap(\.stringValue), duration: ms / 1000)
    }
}

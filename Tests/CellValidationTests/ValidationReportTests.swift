import CellIO
import CellRuntime
@testable import CellValidation
import Testing

@Suite struct ValidationReportTests {
    let results = [
        CheckResult(check: "strict-load", outcome: .success, details: [], duration: 0.0012),
        CheckResult(check: "fuzz-values", outcome: .crashed, details: ["the worker crashed with SIGSEGV"], duration: 0.25),
        CheckResult(check: "load-time", outcome: .warning, details: ["load 150 ms"], duration: 0.15),
    ]

    @Test func humanLinesGiveOutcomeDurationAndIndentedDetails() {
        #expect(ValidationReport.line(for: results[0]) == "[SUCCESS] strict-load                1.2 ms")
        let crashed = ValidationReport.line(for: results[1]).split(separator: "\n")
        #expect(crashed.count == 2)
        #expect(crashed[0].hasPrefix("[CRASHED] fuzz-values"))
        #expect(crashed[0].hasSuffix("250 ms"))
        #expect(crashed[1] == "            the worker crashed with SIGSEGV")
    }

    @Test func summaryCountsOutcomesAndNamesTheSeed() {
        let report = ValidationReport(path: "p.so", seed: 42, results: results)
        #expect(report.hasProblems)
        #expect(report.summary == "3 checks: 1 success, 1 warning, 1 crashed\nseed 42 (replay the random checks with --seed 42)")
    }

    @Test func jsonCarriesEveryResultAndWorkerMessagesRoundTrip() throws {
        let report = ValidationReport(path: "p.so", seed: UInt64.max, results: results)
        let json = try JSON.parse(report.json.serialized)
        #expect(json["schema"]?.stringValue == "cellhost.validate/1")
        #expect(json["seed"]?.stringValue == String(UInt64.max))
        #expect(json["passed"]?.boolValue == false)
        #expect(json["results"]?.arrayValue?.count == 3)
        for result in results {
            #expect(WorkerMessage(line: WorkerMessage.result(result).line) == .result(result))
        }
        #expect(WorkerMessage(line: WorkerMessage.step("draw").line) == .step("draw"))
        #expect(WorkerMessage(line: "not json") == nil)
    }

    @Test func outcomesThatFailTheRun() {
        #expect(CheckOutcome.allCases.filter(\.isProblem) == [.failed, .crashed, .error])
    }
}

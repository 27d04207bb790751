import CellIO

/// The report as JUnit XML, which CI systems (GitHub Actions reporters, GitLab, Jenkins) show
/// as tests: one `testsuite` per stream and one `testcase` per capture; recorded references and
/// mismatches are `failure`s, a stream that could not run is an `error`. Written whole or not
/// at all (`AtomicFile`), so a CI step never reads half a report.
public enum JUnitReport {
    public static func xml(_ report: SnapshotReport) -> String {
        var streams: [String] = []
        var byStream: [String: [SnapshotOutcome]] = [:]
        for o in report.outcomes {
            if byStream[o.stream] == nil { streams.append(o.stream) }
            byStream[o.stream, default: []].append(o)
        }
        let failures = report.outcomes.filter { $0.status == .failed || $0.status == .recorded }.count
        let errors = report.outcomes.filter { $0.status == .error }.count
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"cellhost test\" tests=\"\(report.outcomes.count)\" failures=\"\(failures)\" errors=\"\(errors)\">\n"
        for stream in streams {
            let cases = byStream[stream]!
            let f = cases.filter { $0.status == .failed || $0.status == .recorded }.count
            let e = cases.filter { $0.status == .error }.count
            xml += "  <testsuite name=\"\(escape(stream))\" tests=\"\(cases.count)\" failures=\"\(f)\" errors=\"\(e)\">\n"
            for c in cases {
                xml += "    <testcase classname=\"\(escape(stream))\" name=\"\(escape(c.capture ?? "(stream)"))\""
                let body = ([c.message] + c.files).joined(separator: "\n")
                switch c.status {
                case .passed: xml += "/>\n"; continue
                case .failed, .recorded:
                    xml += ">\n      <failure message=\"\(escape(c.message))\">\(escape(body))</failure>\n"
                case .error:
                    xml += ">\n      <error message=\"\(escape(c.message))\">\(escape(body))</error>\n"
                }
                xml += "    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }

    public static func write(_ report: SnapshotReport, to path: String) throws(SinkError) {
        let file = try AtomicFile(path: path)
        file.write(xml(report))
        try file.commit()
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n", "\t": out.unicodeScalars.append(scalar)
            // XML 1.0 allows no other control characters, not even escaped.
            case _ where scalar.value < 0x20: out += "?"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

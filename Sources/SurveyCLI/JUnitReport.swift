import Foundation
import SurveyReports

/// JUnit XML, the test report format every CI shows: one `<testsuite>` for the survey, one
/// `<testcase>` per answer script, a `<failure>` with the readable differences when it failed.
enum JUnitReport {
    struct Case {
        var name: String
        var description: String?
        var problems: [String]
        var seconds: Double
    }

    static func xml(suite: String, file: String, results: [Case], seconds: Double, timestamp: Date) -> String {
        let failures = results.filter { !$0.problems.isEmpty }.count
        let time = { (value: Double) in String(format: "%.3f", value) }
        let stamp = ISO8601DateFormatter().string(from: timestamp)
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml +=
            #"<testsuites name="survey test" tests="\#(results.count)" failures="\#(failures)" errors="0" time="\#(time(seconds))">"#
            + "\n"
        xml +=
            #"  <testsuite name="\#(escape(suite))" tests="\#(results.count)" failures="\#(failures)" errors="0" skipped="0" time="\#(time(seconds))" timestamp="\#(stamp)" file="\#(escape(file))">"#
            + "\n"
        for result in results {
            xml +=
                #"    <testcase classname="\#(escape(suite))" name="\#(escape(result.name))" file="\#(escape(result.name))" time="\#(time(result.seconds))""#
            if result.problems.isEmpty && result.description == nil {
                xml += "/>\n"
                continue
            }
            xml += ">\n"
            if let description = result.description {
                xml += "      <system-out>\(escape(description))</system-out>\n"
            }
            if let first = result.problems.first {
                let message = first.split(separator: "\n").first.map(String.init) ?? first
                xml += #"      <failure message="\#(escape(message))" type="expectation">"#
                xml += escape(result.problems.joined(separator: "\n\n")) + "</failure>\n"
            }
            xml += "    </testcase>\n"
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    /// Escapes text for XML content and attributes; characters XML 1.0 cannot hold become U+FFFD.
    static func escape(_ text: String) -> String { Markup.escape(text) }
}

import Foundation
import SurveyBuiltins
import SurveyCore
import SurveyRendering

enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func text(_ name: String) throws -> String {
        try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
    }

    static func survey(_ name: String) throws -> Survey {
        try SurveyLoader(registry: .builtins()).load(text: text(name), source: name)
    }
}

/// Runs the JSON-event front end on `lines`, returning the events as JSON values.
func runJSON(_ survey: Survey, _ lines: [String], locale: String? = nil) -> (DriverOutcome, [JSONValue]) {
    var output: [String] = []
    var renderer = JSONEventRenderer(input: ArrayLineSource(lines)) { output.append($0) }
    var driver = SurveyDriver(session: SurveySession(survey: survey, locale: locale))
    let outcome = driver.run(with: &renderer)
    return (outcome, output.compactMap { try? JSONParser.parse($0) })
}

/// Runs the text front end on `lines`, returning the text.
func runText(_ survey: Survey, _ lines: [String], locale: String? = nil) -> (DriverOutcome, String) {
    var output = ""
    var renderer = TextRenderer(input: ArrayLineSource(lines), style: .plain) { output += $0 }
    var driver = SurveyDriver(session: SurveySession(survey: survey, locale: locale))
    let outcome = driver.run(with: &renderer)
    return (outcome, output)
}

extension JSONValue {
    var event: String? { self["event"]?.stringValue }
}

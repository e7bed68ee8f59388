import Foundation
import SurveyAnalysis
import SurveyBuiltins
import SurveyCore
import SurveyImport
import Testing

/// A survey file around `steps` (the JSON of the steps array's elements), with `extra` top-level members.
func surveyJSON(_ steps: String, extra: String = "") -> String {
    """
    {"formatVersion": 1, "id": "test", "title": "Test",\(extra.isEmpty ? "" : " " + extra + ",")
     "steps": [
    \(steps)
     ]}
    """
}

/// Loads `json` with the built-in types and lints it.
func lint(_ json: String, configuration: LintConfiguration = LintConfiguration()) throws -> [LintFinding] {
    let linter = SurveyLinter(configuration: configuration)
    // A SurveyJS survey is linted as `survey lint` lints it: converted, with the names it reads but
    // does not define.
    if let parsed = try? JSONParser.parse(json), SurveyJSImporter.looksLikeSurveyJS(parsed) {
        // As `survey lint --lenient-expressions` reads it (the invalid-expression rule's examples).
        let conversion = try SurveyJSImporter.convert(parsed, id: "test", lenientExpressions: true)
        let survey = try SurveyLoader(registry: .builtins()).compile(SurveyDefinition(json: conversion.survey))
        return linter.unknownReferences(conversion.hostNames, in: survey, file: "test.json")
            + linter.invalidExpressions(conversion.unparsableExpressions, file: "test.json")
            + linter.lint(survey, file: "test.json")
    }
    let survey = try SurveyLoader(registry: .builtins()).load(text: json, source: "test.json")
    return linter.lint(survey, source: json, file: "test.json")
}

/// The findings of `rule` when linting a survey of `steps`.
func findings(_ rule: LintRule, steps: String, extra: String = "") throws -> [LintFinding] {
    try lint(surveyJSON(steps, extra: extra)).filter { $0.rule == rule }
}

/// Every finding of a survey, one per line, for failure messages.
func listing(_ findings: [LintFinding]) -> String {
    findings.map(\.description).joined(separator: "\n")
}

/// The repository root (for Examples/).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

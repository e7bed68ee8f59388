import Foundation
import SurveyBuiltins
import SurveyCore
import Testing

// The bundled example surveys (Examples/*.json), their answer scripts (Examples/answers/) and the
// negative fixtures of the JSON Schema (Tests/SchemaFixtures/invalid/), checked against the engine.
// scripts/validate-examples.py checks the same files against schema/survey.schema.json.

/// The repository root, found from this file's path (Tests/SurveyCoreTests/ExamplesTests.swift).
private let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

private func jsonFileNames(in directory: String) -> [String] {
    let path = repositoryRoot.appendingPathComponent(directory).path
    let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    return names.filter { $0.hasSuffix(".json") }.sorted()
}

private func readText(_ relativePath: String) throws -> String {
    try String(contentsOf: repositoryRoot.appendingPathComponent(relativePath), encoding: .utf8)
}

private let exampleNames = jsonFileNames(in: "Examples")
private let fixtureNames = jsonFileNames(in: "Tests/SchemaFixtures/invalid")
private let answersReadme = "Examples/answers/README.md"

/// One row of the table in Examples/answers/README.md.
struct AnswerScript: Sendable, CustomTestStringConvertible {
    var script: String
    var survey: String
    var expectedPath: [String]

    var testDescription: String { script }

    /// The rows of the README's table: `| `script` | `survey` | `id` → `id` … |`.
    static func all() -> [AnswerScript] {
        guard let readme = try? readText(answersReadme) else { return [] }
        return readme.split(separator: "\n").compactMap { line -> AnswerScript? in
            guard line.hasPrefix("| `") else { return nil }
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 3 else { return nil }
            let ids = cells.map(backticked)
            guard ids[0].count == 1, ids[1].count == 1 else { return nil }
            return AnswerScript(script: ids[0][0], survey: ids[1][0], expectedPath: ids[2])
        }
    }

    private static func backticked(_ cell: String) -> [String] {
        cell.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }
}

private let answerScripts = AnswerScript.all()

@Suite struct ExamplesTests {
    let loader = SurveyLoader(registry: .builtins())

    @Test func thereAreExamplesFixturesAndScripts() {
        #expect(exampleNames.count >= 3, "expected at least three surveys in Examples/, found \(exampleNames)")
        #expect(!fixtureNames.isEmpty, "no negative fixtures in Tests/SchemaFixtures/invalid")
        #expect(!answerScripts.isEmpty, "no rows in the table of \(answersReadme)")
    }

    @Test(arguments: exampleNames)
    func exampleCompiles(_ name: String) throws {
        let text = try readText("Examples/" + name)
        do {
            let survey = try loader.load(text: text, source: name)
            #expect(survey.stepCount > 0)
        } catch {
            Issue.record("\(name) does not load:\n\(error)")
        }
    }

    @Test(arguments: exampleNames)
    func exampleRoundTripIsByteStable(_ name: String) throws {
        let text = try readText("Examples/" + name)
        let decoded = try SurveyDefinition(json: JSONParser.parse(text))
        let encoded = decoded.jsonText()
        let redecoded = try SurveyDefinition(json: JSONParser.parse(encoded))
        #expect(redecoded == decoded, "\(name): decoding the saved form gives a different definition")
        #expect(redecoded.jsonText() == encoded, "\(name): a second save differs from the first")
        // The saved form is a survey the engine still compiles.
        _ = try loader.load(text: encoded, source: name + " (saved)")
    }

    /// Each fixture the schema rejects is also rejected by the loader, with the kind of error that
    /// Tests/SchemaFixtures/expectations.json names, unless it is listed as a schema-only rule.
    @Test(arguments: fixtureNames)
    func negativeFixtureMatchesLoader(_ name: String) throws {
        let expectations = try JSONParser.parse(readText("Tests/SchemaFixtures/expectations.json"))
        guard let expected = expectations[name]?["loader"]?.stringValue else {
            Issue.record("\(name) has no 'loader' entry in Tests/SchemaFixtures/expectations.json")
            return
        }
        let text = try readText("Tests/SchemaFixtures/invalid/" + name)
        do {
            _ = try loader.load(text: text, source: name)
            if expected != "accepts" {
                Issue.record("\(name): the loader accepts it, but should report a '\(expected)' error")
            }
        } catch {
            if expected == "accepts" {
                Issue.record(
                    "\(name) is listed as a schema-only rule, but the loader now rejects it; put the error kind in expectations.json:\n\(error)"
                )
            } else {
                let kinds = error.errors.map(\.kind.rawValue)
                #expect(kinds.contains(expected), "\(name): expected a '\(expected)' error, got:\n\(error)")
            }
        }
    }

    @Test func everyAnswerScriptIsListedAndEverySurveyHasOne() {
        let listed = Set(answerScripts.map(\.script))
        let files = Set(jsonFileNames(in: "Examples/answers"))
        #expect(
            files.subtracting(listed).isEmpty,
            "scripts missing from \(answersReadme): \(files.subtracting(listed).sorted())")
        #expect(
            listed.subtracting(files).isEmpty,
            "\(answersReadme) lists missing scripts: \(listed.subtracting(files).sorted())")
        for script in answerScripts {
            let survey = String(script.survey.dropLast(".json".count))
            #expect(script.script.hasPrefix(survey + "-"), "\(script.script) should be named \(survey)-<case>.json")
            #expect(exampleNames.contains(script.survey), "\(script.script) names a survey that is not in Examples/")
        }
        let covered = Set(answerScripts.map(\.survey))
        for name in exampleNames {
            #expect(covered.contains(name), "\(name) has no answer script in \(answersReadme)")
        }
    }

    /// Plays a script: on each unit, answers the visible steps the script has answers for (again
    /// after each answer, since an answer can reveal a step on the same page), then Next.
    @Test(arguments: answerScripts)
    func answerScriptTakesExpectedPath(_ script: AnswerScript) throws {
        let survey = try loader.load(text: readText("Examples/" + script.survey), source: script.survey)
        guard case .object(let answers) = try JSONParser.parse(readText("Examples/answers/" + script.script)) else {
            Issue.record("\(script.script) must be an object from step id to answer")
            return
        }
        var session = SurveySession(survey: survey)
        var used: Set<String> = []
        var result: CompletionResult?
        for _ in 0..<1_000 where result == nil {
            var pending = true
            while pending {
                pending = false
                // Comment boxes are answered as `<id>-Comment`.
                let keys = session.currentStepIDs.flatMap { [$0, $0 + "-Comment"] }
                for id in keys where !used.contains(id) {
                    guard let value = answers[id] else { continue }
                    try session.answer(value, for: id)
                    used.insert(id)
                    pending = true
                    break
                }
            }
            switch session.next() {
            case .moved: continue
            case .completed(let completion): result = completion
            case .blocked(let errors):
                Issue.record("\(script.script): blocked on \(session.currentUnitID ?? "?"): \(errors)")
                return
            }
        }
        guard let result else {
            Issue.record("\(script.script): did not complete")
            return
        }
        #expect(result.path == script.expectedPath, "\(script.script) took \(result.path.joined(separator: " → "))")
        #expect(
            Set(answers.keys).subtracting(used).isEmpty,
            "\(script.script): answers never asked for: \(Set(answers.keys).subtracting(used).sorted())")
        // Computed questions (`expression`) report their value without being answered.
        let computed = Set(result.answers.keys.filter { survey.question(forStep: $0)?.computedValue != nil })
        #expect(
            Set(result.answers.keys) == used.union(computed),
            "\(script.script): completion reports \(result.answers.keys.sorted())")
    }

    @Test func coffeeExamplePipesAnswersAndCalculatedValues() throws {
        let survey = try loader.load(text: readText("Examples/coffee-habits.json"), source: "coffee-habits.json")
        var session = SurveySession(survey: survey)
        try session.answer("Kim", for: "name")
        _ = session.next()
        #expect(session.currentStep?.questions.first?.title == "How many cups of coffee do you drink a day, Kim?")
        try session.answer(5, for: "cups")
        _ = session.next()
        try session.answer(2.5, for: "price")
        _ = session.next()
        #expect(session.currentUnitID == "cut-down")
        #expect(
            session.currentStep?.questions.first?.title
                == "That's about 35 cups, or 87.5 €, a week. Would you like to cut down?")
        _ = session.next()
        #expect(session.currentStep?.questions.first?.title == "Thanks, Kim!")
    }
}

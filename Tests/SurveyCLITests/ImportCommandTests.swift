import Foundation
import Testing

/// `survey import surveyjs` and SurveyJS files given straight to the other commands.
@Suite struct ImportCommandTests {
    static let survey = """
        {
          "title": "Clinic",
          "pages": [
            {"name": "p1", "elements": [
              {"type": "text", "name": "age", "inputType": "number", "isRequired": true, "width": "50%"},
              {"type": "radiogroup", "name": "visit", "choices": ["first", "follow-up"], "showOtherItem": true}
            ]},
            {"name": "p2", "visibleIf": "{age} >= 18", "elements": [
              {"type": "comment", "name": "reason", "maxTimeToFinish": 5}
            ]}
          ]
        }
        """

    func write(_ text: String, name: String = "clinic.json") throws -> URL {
        let url = try Fixtures.temporaryDirectory().appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test func convertsToAFileAndListsWhatItLeftOut() throws {
        let input = try write(Self.survey)
        let output = input.deletingLastPathComponent().appendingPathComponent("clinic.survey.json")
        let result = try SurveyBinary.run(["import", "surveyjs", input.path, "--out", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        // A note that changes behaviour names the element and its JSON path; layout-only ones are counted in a line.
        #expect(
            lines.contains(
                "\(input.path):9:64: not converted: property 'maxTimeToFinish' of 'reason' (time limits are not supported); at $.pages[1].elements[0].maxTimeToFinish"
            ))
        #expect(lines.contains("\(input.path): layout only, no effect here (1): width"))
        let quiet = try SurveyBinary.run(["import", "surveyjs", input.path, "--out", output.path, "--quiet"])
        #expect(!quiet.stderr.contains("layout only, no effect here"), "\(quiet.stderr)")
        #expect(quiet.stderr.contains("not converted: property 'maxTimeToFinish'"))
        #expect(
            lines.last
                == "\(input.path): converted from SurveyJS; 1 not converted, 1 ignored (layout only); the result is valid"
        )
        let converted = try String(contentsOf: output, encoding: .utf8)
        #expect(converted.hasPrefix("{\n  \"formatVersion\": 1,\n  \"id\": \"clinic\",\n  \"title\": \"Clinic\","))
        let validated = try SurveyBinary.run(["validate", output.path])
        #expect(validated.status == 0, "\(validated.stderr)")
    }

    @Test func strictRefusesAnythingNotConverted() throws {
        let input = try write(Self.survey)
        let output = input.deletingLastPathComponent().appendingPathComponent("out.json")
        let result = try SurveyBinary.run(["import", "surveyjs", input.path, "--strict", "--out", output.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("--strict: nothing written"))
        #expect(!FileManager.default.fileExists(atPath: output.path))
        // Layout-only items do not fail --strict.
        let layoutOnly = try write(
            #"{"pages": [{"name": "p", "elements": [{"type": "boolean", "name": "b", "width": "1"}]}]}"#)
        let accepted = try SurveyBinary.run(["import", "surveyjs", layoutOnly.path, "--strict", "--id", "b"])
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(accepted.stdout.contains("\"id\": \"b\""))
    }

    @Test func aResultThatDoesNotLoadIsReportedAtTheSurveyJSElement() throws {
        let input = try write(
            """
            {"pages": [{"name": "p", "elements": [
              {"type": "bootstrapslider", "name": "kids"},
              {"type": "text", "name": "n", "visibleIf": "{kids} = 'unclosed"}]}]}
            """)
        let result = try SurveyBinary.run(["import", "surveyjs", input.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(input.path):2:12: not converted: type 'bootstrapslider'"))
        #expect(result.stderr.contains("\(input.path):3:3: "))
        #expect(result.stderr.contains("kids"))
        #expect(result.stderr.contains("the result does not load (1 problem)"))
        #expect(result.stdout.contains("\"formatVersion\": 1"))
    }

    @Test func otherCommandsTakeASurveyJSFileDirectly() throws {
        let input = try write(Self.survey)
        let answers = input.deletingLastPathComponent().appendingPathComponent("answers.json")
        try Data(#"{"age": 40, "visit": "first", "reason": "checkup"}"#.utf8).write(to: answers)
        let tested = try SurveyBinary.run([
            "test", input.path, "--answers", answers.path, "--expect-path", "p1,p2",
        ])
        #expect(tested.status == 0, "\(tested.stdout)\(tested.stderr)")
        #expect(tested.stderr.contains("warning: \(input.path):9:64: not converted: property 'maxTimeToFinish'"))
        #expect(tested.stderr.contains("1 item was not converted (see 'survey import surveyjs"))
        let validated = try SurveyBinary.run(["validate", input.path])
        #expect(validated.status == 0 && validated.stdout.contains("valid"))
        let broken = try write(
            #"{"pages": [{"name": "p", "elements": [{"type": "text", "name": "a", "visibleIf": "{nope} = 1"}]}]}"#)
        // survey-core reads {nope} as empty until the host sets it: a warning, not an error.
        let linted = try SurveyBinary.run(["lint", broken.path])
        #expect(linted.status == 0, "\(linted.stdout)\(linted.stderr)")
        #expect(linted.stdout.contains("\(broken.path):1:"), "\(linted.stdout)")
        #expect(linted.stdout.contains("warning: {nope} is no question"), "\(linted.stdout)")
        #expect(linted.stdout.contains("[unknown-reference]"), "\(linted.stdout)")
        let strict = try SurveyBinary.run(["lint", broken.path, "--warnings-as-errors"])
        #expect(strict.status == 1)
    }

    @Test func usageErrors() throws {
        let result = try SurveyBinary.run(["import", "typeform", "x.json"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("the only format is 'surveyjs', got 'typeform'"))
        let missing = try SurveyBinary.run(["import", "surveyjs", "/nonexistent/x.json"])
        #expect(missing.status == 1 && missing.stderr.contains("/nonexistent/x.json: cannot read the file"))
        let notSurvey = try SurveyBinary.run(["import", "surveyjs", try write("[1, 2]").path])
        #expect(notSurvey.status == 1 && notSurvey.stderr.contains("a SurveyJS survey is a JSON object, got an array"))
    }
}

/// `--data-shape`: a SurveyJS survey's results in survey-core's shape by default, the engine's on request.
@Suite struct DataShapeOptionTests {
    @Test func surveyJSFilesGiveSurveyCoresDataUnlessAskedForTheEnginesShape() throws {
        let directory = try Fixtures.temporaryDirectory()
        let file = directory.appendingPathComponent("pet.json").path
        let script = directory.appendingPathComponent("a.json").path
        try #"{"elements": [{"type": "radiogroup", "name": "pet", "choices": ["cat"], "showOtherItem": true}]}"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        try #"{"pet": "other", "pet-Comment": "hamster"}"#.write(toFile: script, atomically: true, encoding: .utf8)
        let shaped = try SurveyBinary.run(["test", file, "--answers", script])
        #expect(shaped.status == 0, "\(shaped.stderr)")
        #expect(shaped.stdout.contains(#""answers":{"pet":"other","pet-Comment":"hamster"}"#), "\(shaped.stdout)")
        // Expectations in that shape name the Other text as NAME-Comment.
        let expected = directory.appendingPathComponent("e.json").path
        try #"{"pet": "other", "pet-Comment": "hamster"}"#.write(toFile: expected, atomically: true, encoding: .utf8)
        let checked = try SurveyBinary.run(["test", file, "--answers", script, "--expect-answers", expected])
        #expect(checked.status == 0, "\(checked.stderr)")
        let engine = try SurveyBinary.run(["test", file, "--answers", script, "--data-shape", "engine"])
        #expect(engine.stdout.contains(#""answers":{"pet":"hamster"}"#), "\(engine.stdout)")
        // A matrix's totals are in that shape too, and expectations may name them.
        let totals = directory.appendingPathComponent("totals.json").path
        try #"""
        {"elements": [{"type": "matrixdropdown", "name": "m", "rows": ["a"],
          "columns": [{"name": "h", "cellType": "text", "totalType": "sum"}]}]}
        """#.write(toFile: totals, atomically: true, encoding: .utf8)
        let hours = directory.appendingPathComponent("hours.json").path
        try #"{"m": {"a": {"h": "7"}}}"#.write(toFile: hours, atomically: true, encoding: .utf8)
        let sums = directory.appendingPathComponent("sums.json").path
        try #"{"m": {"a": {"h": "7"}}, "m-total": {"h": 7}}"#.write(toFile: sums, atomically: true, encoding: .utf8)
        let summed = try SurveyBinary.run(["test", totals, "--answers", hours, "--expect-answers", sums])
        #expect(summed.status == 0, "\(summed.stderr)")
        let wrong = try SurveyBinary.run(["test", file, "--answers", script, "--data-shape", "xml"])
        #expect(wrong.status == 2 && wrong.stderr.contains("--data-shape must be surveyjs or engine, got 'xml'"))
    }
}

import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `survey test FILE --answers DIR`: a folder of scripts as a regression suite, with JUnit XML.
@Suite struct BatchTestTests {
    static let onboarding = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples/onboarding.json").path

    func write(_ scripts: [String: String]) throws -> URL {
        let directory = try Fixtures.temporaryDirectory().appendingPathComponent("scripts")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, text) in scripts { try Data(text.utf8).write(to: directory.appendingPathComponent(name)) }
        return directory
    }

    static let scripts = [
        "a-skip.json": """
        {"description": "Skippers see four units", "answers": {"discovery": "google", "goals": ["sleep"], "experience": "skip"},
         "expectPath": ["welcome", "discovery", "about-you", "experience"],
         "expectShown": ["goals"], "expectHidden": ["instagram-follow-up"]}
        """,
        "b-wrong.json": """
        {"answers": {"discovery": "google", "goals": ["sleep"], "experience": "skip"},
         "expectPath": ["welcome", "discovery", "instagram-follow-up"], "expectHidden": ["goals"]}
        """,
        "c-plain.json": #"{"discovery": "google", "goals": ["sleep"], "experience": "skip"}"#,
    ]

    @Test func aFolderRunsAsASuiteWithOneLinePerScript() throws {
        let directory = try write(Self.scripts)
        let junit = directory.deletingLastPathComponent().appendingPathComponent("report.xml")
        let result = try SurveyBinary.run([
            "test", Self.onboarding, "--answers", directory.path, "--junit", junit.path,
        ])
        #expect(result.status == 1, "one script fails: \(result.stdout)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("ok    \(directory.path)/a-skip.json") == true)
        #expect(lines.contains("FAIL  \(directory.path)/b-wrong.json"))
        #expect(lines.contains("      the path differs from expectPath:"))
        #expect(lines.contains("      shown, but expectHidden lists: goals"))
        #expect(lines.contains { $0.hasPrefix("ok    \(directory.path)/c-plain.json") })
        #expect(lines.last?.hasPrefix("3 scripts: 2 passed, 1 failed (") == true)

        // The JUnit XML has the shape CI servers read.
        let document = try XMLDocument(contentsOf: junit)
        let root = try #require(document.rootElement())
        #expect(root.name == "testsuites")
        #expect(root.attribute(forName: "tests")?.stringValue == "3")
        #expect(root.attribute(forName: "failures")?.stringValue == "1")
        let suite = try #require(root.elements(forName: "testsuite").first)
        for attribute in ["name", "tests", "failures", "errors", "time", "timestamp"] {
            #expect(suite.attribute(forName: attribute) != nil, "testsuite needs \(attribute)")
        }
        let cases = suite.elements(forName: "testcase")
        #expect(cases.count == 3)
        for testCase in cases {
            #expect(testCase.attribute(forName: "name") != nil && testCase.attribute(forName: "classname") != nil)
            #expect(Double(testCase.attribute(forName: "time")?.stringValue ?? "") != nil)
        }
        let failures = cases.flatMap { $0.elements(forName: "failure") }
        #expect(failures.count == 1)
        #expect(failures.first?.attribute(forName: "message")?.stringValue == "the path differs from expectPath:")
        #expect(failures.first?.stringValue?.contains("expected: welcome → discovery → instagram-follow-up") == true)
    }

    @Test func severalFilesAfterTheSurveyAreScriptsToo() throws {
        let directory = try write([
            "a.json": Self.scripts["a-skip.json"] ?? "", "c.json": Self.scripts["c-plain.json"] ?? "",
        ])
        let result = try SurveyBinary.run([
            "test", Self.onboarding, "--answers", directory.appendingPathComponent("a.json").path,
            directory.appendingPathComponent("c.json").path,
        ])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.hasSuffix(
                "2 scripts: 2 passed, 0 failed (" + (result.stdout.components(separatedBy: "failed (").last ?? "")))
    }

    @Test func oneScriptWithExpectationsIsCheckedLikeTheFlags() throws {
        let directory = try write(["b.json": Self.scripts["b-wrong.json"] ?? ""])
        let result = try SurveyBinary.run([
            "test", Self.onboarding, "--answers", directory.appendingPathComponent("b.json").path, "--quiet",
        ])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("the path differs from expectPath of \(directory.path)/b.json"), "\(result.stderr)")
        #expect(result.stderr.contains("shown, but expectHidden lists: goals"))
    }

    @Test func expectationsNamingUnknownStepsAreRefused() throws {
        let directory = try write(["x.json": #"{"answers": {"discovery": "google"}, "expectShown": ["gaols"]}"#])
        let result = try SurveyBinary.run(["test", Self.onboarding, "--answers", directory.path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("the expectations name steps this survey does not have: gaols"))
    }

    /// A calculated value the result includes may be expected, as `survey paths` writes it; a
    /// misspelt one is still refused.
    @Test func expectationsMayNameACalculatedValueOfTheResult() throws {
        let survey = #"""
            {"formatVersion": 1, "id": "s", "title": "S",
             "calculatedValues": [{"name": "isAdult", "expression": "{age} >= 18", "includeIntoResult": true}],
             "steps": [{"id": "age", "type": "number"}]}
            """#
        let directory = try write([
            "survey.json": survey,
            "good.json": #"{"answers": {"age": 20}, "expectAnswers": {"age": 20, "isAdult": true}}"#,
            "typo.json": #"{"answers": {"age": 20}, "expectAnswers": {"age": 20, "isAdlt": true}}"#,
        ])
        let file = directory.appendingPathComponent("survey.json").path
        let good = try SurveyBinary.run(["test", file, "--answers", directory.appendingPathComponent("good.json").path])
        #expect(good.status == 0, "\(good.stdout)\(good.stderr)")
        let typo = try SurveyBinary.run(["test", file, "--answers", directory.appendingPathComponent("typo.json").path])
        #expect(typo.status == 1)
        #expect((typo.stdout + typo.stderr).contains("does not have: isAdlt"), "\(typo.stdout)\(typo.stderr)")
    }

    @Test func flagExpectationsNeedOneScript() throws {
        let directory = try write(Self.scripts)
        let result = try SurveyBinary.run([
            "test", Self.onboarding, "--answers", directory.path, "--expect-path", "welcome",
        ])
        #expect(result.status == 2)
    }
}

@Suite struct SimulateCommandTests {
    @Test func simulateReportsReachAndCompletionReproducibly() throws {
        let arguments = [
            "simulate", BatchTestTests.onboarding, "--respondents", "500", "--seed", "9", "--format", "json",
        ]
        let first = try SurveyBinary.run(arguments)
        #expect(first.status == 0, "\(first.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any]
        #expect(report?["respondents"] as? Int == 500)
        #expect(report?["completed"] as? Int == 500)
        let reach = report?["reach"] as? [String: Double]
        #expect(reach?["welcome"] == 1)
        #expect((reach?["instagram-follow-up"] ?? 1) < 0.5)
        #expect(try SurveyBinary.run(arguments).stdout == first.stdout, "the same seed gives the same report")
        let text = try SurveyBinary.run(["simulate", BatchTestTests.onboarding, "--respondents", "200"])
        #expect(text.stdout.hasPrefix("Survey habitly-onboarding: 200 simulated respondents (seed 0), 200 completed"))
    }

    @Test func aProfileNamingAnUnknownStepIsRefused() throws {
        let directory = try Fixtures.temporaryDirectory()
        let profile = directory.appendingPathComponent("p.json")
        try Data(#"{"weights": {"Discovery": {"google": 1}}}"#.utf8).write(to: profile)
        let result = try SurveyBinary.run(["simulate", BatchTestTests.onboarding, "--profile", profile.path])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "weights name 'Discovery', which is not a step of the survey (did you mean 'discovery'?)"))
        #expect(try SurveyBinary.run(["simulate", BatchTestTests.onboarding, "--respondents", "0"]).status == 2)
    }
}

/// `survey paths` then `survey test`: every example is fully covered by scripts that pass.
@Suite struct PathsCommandTests {
    static let examples = ["coffee-habits", "exit-poll", "feedback", "kitchen-sink", "onboarding"]

    @Test(arguments: PathsCommandTests.examples)
    func generatedScriptsCoverTheExampleAndPass(example: String) throws {
        let survey = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Examples/\(example).json").path
        let out = try Fixtures.temporaryDirectory().appendingPathComponent("paths")
        let paths = try SurveyBinary.run(["paths", survey, "--out", out.path, "--time-limit", "20"])
        #expect(paths.status == 0, "\(paths.stdout)\(paths.stderr)")
        #expect(paths.stdout.contains("(100.0%)"), "\(paths.stdout)")
        let junit = out.deletingLastPathComponent().appendingPathComponent("r.xml").path
        let test = try SurveyBinary.run(["test", survey, "--answers", out.path, "--junit", junit])
        #expect(test.status == 0, "\(test.stdout)")
        let coverage = try SurveyBinary.run(["coverage", survey, "--answers", out.path])
        #expect(coverage.stdout.contains("(100.0%)"), "\(coverage.stdout)")
    }

    @Test func coverageListsWhatTheScriptsMiss() throws {
        let result = try SurveyBinary.run([
            "coverage", BatchTestTests.onboarding, "--answers",
            Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Examples/answers/onboarding-skip.json").path,
        ])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("1 script: branch coverage "))
        #expect(result.stdout.contains("not covered: 'instagram-follow-up' shown"), "\(result.stdout)")
    }
}

@Suite struct DistinctPathsTests {
    @Test func allEnumeratesDistinctPathsUpToMax() throws {
        let out = try Fixtures.temporaryDirectory().appendingPathComponent("all")
        let result = try SurveyBinary.run([
            "paths", BatchTestTests.onboarding, "--out", out.path, "--all", "--max", "50",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(files.count == 5, "onboarding has five distinct paths: \(files)")
        var paths = Set<[String]>()
        for file in files {
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent(file)))
            paths.insert((json as? [String: Any])?["expectPath"] as? [String] ?? [])
        }
        #expect(paths.count == 5)
        let capped = try Fixtures.temporaryDirectory().appendingPathComponent("capped")
        _ = try SurveyBinary.run(["paths", BatchTestTests.onboarding, "--out", capped.path, "--all", "--max", "3"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: capped.path).count == 3)
        #expect(
            try SurveyBinary.run(["paths", BatchTestTests.onboarding, "--out", capped.path, "--max", "3"]).status == 2)
        #expect(try SurveyBinary.run(["test", BatchTestTests.onboarding, "--answers", out.path]).status == 0)
    }
}

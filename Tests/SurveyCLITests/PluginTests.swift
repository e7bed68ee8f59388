import Foundation
import SurveyTestFixtures
import Testing

/// The example plugins through the built `survey` binary: `survey types`, `survey test`,
/// `survey run` (text and JSON), `survey validate`, and one test per loader failure mode.
/// The plugins are the dynamic products `swift build` puts next to `survey`.
@Suite("survey CLI with plugins")
struct PluginTests {
    static let root = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
    static let survey = "Plugins/Examples/health-check.json"
    static let overScript = "Plugins/Examples/answers/health-check-bmi-over-25.json"
    static let underScript = "Plugins/Examples/answers/health-check-bmi-under-25.json"
    static let overPath = ["intro", "weight", "height", "activity-tips", "favourite-color", "mood", "thanks"]
    static let underPath = ["intro", "weight", "height", "favourite-color", "mood", "thanks"]

    /// `lib<name>.so`: an example plugin next to the `survey` binary, or a broken fixture compiled for the tests.
    static func library(_ name: String) -> String {
        name.hasPrefix("Broken")
            ? BrokenPlugins.library(name, repositoryRoot: root.path)
            : SurveyBinary.buildDirectory.appendingPathComponent("lib\(name).so").path
    }

    /// `--plugin` arguments for the three example plugins.
    static let examplePlugins = ["HealthFunctions", "ColorPicker", "CStarPlugin"].flatMap {
        ["--plugin", library($0)]
    }

    static func run(_ arguments: [String], stdin: String = "", environment: [String: String] = [:]) throws
        -> SurveyBinary.Result
    {
        try SurveyBinary.run(arguments, stdin: stdin, environment: environment, directory: root)
    }

    // MARK: survey types

    @Test func typesListsAPluginTypeBesideTheBuiltIns() throws {
        let result = try Self.run(["types", "--plugin", Self.library("ColorPicker")])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("rating ") })
        let color = try #require(lines.first { $0.hasPrefix("color ") })
        #expect(color.contains("#RRGGBB"))
        #expect(color.hasSuffix("[\(Self.library("ColorPicker"))]"))
    }

    @Test func typesListsFunctionsWithTheirSignatures() throws {
        let library = Self.library("HealthFunctions")
        let result = try Self.run(["types", "--plugin", library])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("Expression functions:"))
        #expect(lines.contains("  bmi(double, double) -> double  [\(library)]"))
        #expect(lines.contains("  initials(string) -> string  [\(library)]"))
        #expect(lines.contains("  iif(…)  0–3 arguments"))
        #expect(lines.contains("  round(…)  1–2 arguments"))
    }

    @Test func typesFindsPluginsInSurveyPluginPath() throws {
        let directory = try Fixtures.temporaryDirectory()
        for name in ["ColorPicker", "CStarPlugin"] {
            try FileManager.default.createSymbolicLink(
                atPath: directory.appendingPathComponent("lib\(name).so").path,
                withDestinationPath: Self.library(name))
        }
        let result = try Self.run(["types"], environment: ["SURVEY_PLUGIN_PATH": directory.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\ncolor "))
        #expect(result.stdout.contains("\nemoji-rating "))
        #expect(result.stdout.contains("\nnumber "))
    }

    // MARK: survey test

    @Test(arguments: [(overScript, overPath), (underScript, underPath)])
    func testFollowsTheBMIBranch(script: String, path: [String]) throws {
        let result = try Self.run(
            ["test", Self.survey, "--answers", script, "--expect-path", path.joined(separator: ",")]
                + Self.examplePlugins)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let completed = try #require(result.stdout.split(separator: "\n").last)
        #expect(completed.contains(#""event":"completed""#))
        #expect(completed.contains(##""favourite-color":"#"##))
    }

    @Test func aWrongExpectedPathFails() throws {
        let result = try Self.run(
            [
                "test", Self.survey, "--answers", Self.underScript, "--quiet", "--expect-path",
                Self.overPath.joined(separator: ","),
            ]
                + Self.examplePlugins)
        #expect(result.status == 1)
        #expect(result.stderr.contains("the path differs from --expect-path"))
    }

    @Test func pluginTypesAndFunctionsShowInTheTranscript() throws {
        let result = try Self.run(["test", Self.survey, "--answers", Self.overScript] + Self.examplePlugins)
        #expect(result.status == 0, "\(result.stderr)")
        // bmi() through a calculated value, piped into a title; the Swift plugin normalised the colour.
        #expect(result.stdout.contains("Your BMI is 27.8. Would you like a few tips on staying active?"))
        #expect(result.stdout.contains(##""favourite-color":"#FF8800""##))
        #expect(result.stdout.contains(#""presentation":"emoji""#))
    }

    // MARK: survey run

    @Test func completesThroughTheJSONEventFrontEnd() throws {
        let answers: [(String, String)] = [
            ("weight", "85"), ("height", "175"), ("activity-tips", "false"), ("favourite-color", "\"#0af\""),
            ("mood", "2"),
        ]
        var lines = [#"{"command":"next"}"#]
        for (step, value) in answers {
            lines.append(#"{"command":"answer","stepId":"\#(step)","value":\#(value)}"#)
            lines.append(#"{"command":"next"}"#)
        }
        lines.append(#"{"command":"next"}"#)
        let result = try Self.run(
            ["run", Self.survey, "--renderer", "json", "--state-file", "/dev/null"] + Self.examplePlugins,
            stdin: lines.joined(separator: "\n") + "\n")
        #expect(result.status == 0, "\(result.stderr)")
        let events = result.stdout.split(separator: "\n")
        #expect(!events.contains { $0.contains(#""event":"error""#) || $0.contains(#""event":"validation-error""#) })
        // A plugin type is presented like a built-in: its type id and an ordinary input primitive.
        #expect(events.contains { $0.contains(#""type":"color""#) && $0.contains(#""kind":"free-text""#) })
        let completed = try #require(events.last)
        #expect(completed.contains(#""event":"completed""#))
        #expect(completed.contains(#""path":["\#(Self.overPath.joined(separator: "\",\""))"]"#))
        #expect(completed.contains(##""favourite-color":"#00AAFF""##))
        #expect(completed.contains(#""mood":2"#))
    }

    @Test func completesThroughTheTextFrontEndWithPipedInput() throws {
        let result = try Self.run(
            ["run", Self.survey, "--state-file", "/dev/null", "--result", "/dev/stderr"] + Self.examplePlugins,
            stdin: ["", "62.5", "172", "#0a0", "9", "5", ""].joined(separator: "\n") + "\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Which colour cheers you up?"))
        #expect(result.stdout.contains("1 = 😞 · 5 = 😍"))
        #expect(result.stdout.contains("! Choose a face from 1 to 5."))
        #expect(result.stdout.contains("Your BMI is 21.1."))
        #expect(result.stdout.contains("The survey is complete."))
        #expect(!result.stdout.contains("Would you like a few tips"))
        #expect(result.stderr.contains("#00AA00"))
    }

    // MARK: survey validate

    @Test func validateWithThePluginsAccepts() throws {
        let result = try Self.run(["validate", Self.survey] + Self.examplePlugins)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "\(Self.survey): valid\n")
    }

    @Test func validateWithoutThePluginsReportsUnknownTypesAndFunctionsWithTheirPlace() throws {
        let result = try Self.run(["validate", Self.survey])
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        let color = try #require(lines.first { $0.contains("unknown question type 'color'") })
        #expect(color.hasPrefix(Self.survey + ":"))
        #expect(color.contains("step 'favourite-color', at $.steps[4].type"))
        #expect(
            lines.contains { $0.contains("unknown question type 'emoji-rating'") && $0.contains("$.steps[5].type") })
        #expect(lines.contains { $0.contains("unknown function 'bmi()'") && $0.contains("$.steps[3].visibleIf") })
    }

    // MARK: Loader failure modes: one line on stderr naming the file, exit status 1

    /// Runs `survey types` with `plugins` and checks the one-line error.
    func expectOneLineFailure(
        _ plugins: [String], startsWith prefix: String, contains part: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let result = try Self.run(["types"] + plugins.flatMap { ["--plugin", $0] })
        #expect(result.status == 1, sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && lines[1].isEmpty, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.hasPrefix(prefix), "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.contains(part), "\(result.stderr)", sourceLocation: sourceLocation)
    }

    @Test func pluginFileNotFound() throws {
        try expectOneLineFailure(
            ["/nonexistent/libNothing.so"], startsWith: "/nonexistent/libNothing.so: ",
            contains: "plugin file not found")
    }

    @Test func pluginDirectoryNotFound() throws {
        let result = try Self.run(["types"], environment: ["SURVEY_PLUGIN_PATH": "/nonexistent-plugins"])
        #expect(result.status == 1)
        #expect(result.stderr == "/nonexistent-plugins: plugin directory from SURVEY_PLUGIN_PATH not found\n")
    }

    @Test func notASharedObject() throws {
        let file = try Fixtures.temporaryDirectory().appendingPathComponent("libText.so").path
        try Data("not an ELF file\n".utf8).write(to: URL(fileURLWithPath: file))
        try expectOneLineFailure([file], startsWith: file + ": ", contains: "not a loadable shared library")
    }

    @Test func aFIFOGivenAsPluginIsRefusedNotWaitedOn() throws {
        let file = try Fixtures.temporaryDirectory().appendingPathComponent("libFIFO.so").path
        #expect(mkfifo(file, 0o600) == 0)
        try expectOneLineFailure([file], startsWith: file + ": ", contains: "not a regular file")
    }

    @Test func missingEntrySymbol() throws {
        let file = Self.library("BrokenNoEntry")
        try expectOneLineFailure(
            [file], startsWith: file + ": ", contains: "missing entry symbol 'survey_plugin_entry'")
    }

    @Test func abiVersionMismatch() throws {
        let file = Self.library("BrokenABIVersion")
        try expectOneLineFailure([file], startsWith: file + ": ", contains: "ABI version 99 is not supported")
    }

    @Test func structSizeMismatch() throws {
        let file = Self.library("BrokenStructSize")
        try expectOneLineFailure([file], startsWith: file + ": ", contains: "survey_plugin.struct_size is 8")
    }

    @Test func duplicateTypeIDAcrossTwoPlugins() throws {
        // A copy is another file, so it is loaded again and declares 'emoji-rating' a second time.
        let copy = try Fixtures.temporaryDirectory().appendingPathComponent("libImpostor.so").path
        try FileManager.default.copyItem(atPath: Self.library("CStarPlugin"), toPath: copy)
        try expectOneLineFailure(
            [Self.library("CStarPlugin"), copy], startsWith: copy + ": ",
            contains: "question type 'emoji-rating' is already registered by \(Self.library("CStarPlugin"))")
    }

    /// Writes a one-question survey of `type` (with `options`) and a script answering it.
    func brokenSurvey(type: String, options: String = "{}") throws -> (survey: String, answers: String) {
        let directory = try Fixtures.temporaryDirectory()
        let survey = directory.appendingPathComponent("broken.json").path
        let answers = directory.appendingPathComponent("answers.json").path
        try Data(
            """
            {"formatVersion": 1, "id": "broken", "title": "Broken", "steps": [
              {"id": "q", "type": "\(type)", "title": "Q", "required": true, "options": \(options)}]}

            """.utf8
        ).write(to: URL(fileURLWithPath: survey))
        try Data(#"{"q": "hello"}"#.utf8).write(to: URL(fileURLWithPath: answers))
        return (survey, answers)
    }

    @Test func invalidJSONFromAPlugin() throws {
        let file = Self.library("BrokenInvalidJSON")
        let (survey, answers) = try brokenSurvey(type: "broken-json")
        let result = try Self.run(["test", survey, "--answers", answers, "--quiet", "--plugin", file])
        #expect(result.status == 1)
        // One line for the operator with what the plugin returned, one for the failed script.
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 2, "\(result.stderr)")
        #expect(
            lines.first?.hasPrefix(
                "survey: plugin \(file): question type 'broken-json': normalize returned invalid JSON") == true)
        #expect(
            lines.last?.hasPrefix(
                answers + ": the scripted answer for 'q' is invalid: This answer could not be checked.") == true)
    }

    @Test func errorReportedByAPlugin() throws {
        let file = Self.library("BrokenFailingNormalize")
        let (survey, answers) = try brokenSurvey(type: "always-fails")
        let result = try Self.run(["test", survey, "--answers", answers, "--quiet", "--plugin", file])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "\(answers): the scripted answer for 'q' is invalid: This plugin rejects every answer. (at 'q'; question type 'always-fails' from \(file))\n"
        )
    }

    @Test func optionsErrorReportedByAPlugin() throws {
        let (survey, _) = try brokenSurvey(type: "always-fails", options: #"{"reject": 1}"#)
        let result = try Self.run(["validate", survey, "--plugin", Self.library("BrokenFailingNormalize")])
        #expect(result.status == 1)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix(survey + ":2:"))
        #expect(result.stderr.contains("'reject' is not allowed here (step 'q', at $.steps[0].options.reject)"))
    }

    // MARK: docs/plugins-quickstart.md

    /// The first fenced block of `language` after `heading` in the quick start.
    static func quickstartBlock(_ language: String, after heading: String) throws -> String {
        let document = try String(
            contentsOf: root.appendingPathComponent("docs/plugins-quickstart.md"), encoding: .utf8)
        let section = try #require(document.range(of: heading))
        let rest = document[section.upperBound...]
        let start = try #require(rest.range(of: "```\(language)\n"))
        let end = try #require(rest[start.upperBound...].range(of: "```"))
        return String(rest[start.upperBound..<end.lowerBound])
    }

    @Test func theQuickstartCPluginBuildsLoadsAndRuns() throws {
        let directory = try Fixtures.temporaryDirectory()
        let source = directory.appendingPathComponent("percent.c")
        let library = directory.appendingPathComponent("libpercent.so").path
        try Data(try Self.quickstartBlock("c", after: "## 3. Write a plugin in C").utf8).write(to: source)
        let compiler = Process()
        compiler.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        compiler.arguments = [
            "cc", "-shared", "-fPIC", "-Wall", "-Werror", "-I",
            Self.root.appendingPathComponent("Sources/CSurveyPluginABI/include").path, "-o", library, source.path,
        ]
        try compiler.run()
        compiler.waitUntilExit()
        #expect(compiler.terminationStatus == 0)

        let types = try Self.run(["types", "--plugin", library])
        #expect(types.stdout.contains("percent           A whole percentage, 0 to 100  [\(library)]"))

        let survey = directory.appendingPathComponent("percent-demo.json").path
        try Data(try Self.quickstartBlock("json", after: "## 3. Write a plugin in C").utf8).write(
            to: URL(fileURLWithPath: survey))
        let answers = directory.appendingPathComponent("hot.json").path
        try Data(#"{"charge": 80, "temperature": 31}"#.utf8).write(to: URL(fileURLWithPath: answers))
        let hot = try Self.run(
            [
                "test", survey, "--plugin", library, "--answers", answers, "--quiet", "--expect-path",
                "charge,temperature,hot",
            ])
        #expect(hot.status == 0, "\(hot.stderr)")
        try Data(#"{"charge": 101, "temperature": 20}"#.utf8).write(to: URL(fileURLWithPath: answers))
        let refused = try Self.run(["test", survey, "--plugin", library, "--answers", answers, "--quiet"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("Enter a whole number from 0 to 100."))
    }
}

/// `--isolate-plugins` end to end: a plugin that crashes or hangs costs one answer a message, the
/// run goes on and completes with every answer.
@Suite("survey CLI with --isolate-plugins")
struct IsolatedPluginTests {
    static let survey = """
        {"formatVersion": 1, "id": "crashy", "version": "1", "title": "Crashy", "defaultLocale": "en",
         "calculatedValues": [{"name": "doubled", "expression": "double_or_crash({n})"}],
         "steps": [
          {"id": "n", "type": "number", "title": "A number"},
          {"id": "c", "type": "crashy", "title": "Say something"},
          {"id": "end", "type": "content", "title": "Doubled: {doubled}"}
         ]}
        """

    @Test func aCrashAndAHangAreOneRefusedAnswerEachAndTheRunCompletes() throws {
        let directory = try Fixtures.temporaryDirectory()
        let file = directory.appendingPathComponent("crashy.json").path
        try Self.survey.write(toFile: file, atomically: true, encoding: .utf8)
        let plugin = PluginTests.library("BrokenCrashing")
        let commands = [
            #"{"command":"answer","stepId":"n","value":-1}"#, #"{"command":"next"}"#,
            #"{"command":"answer","stepId":"c","value":"crash"}"#, #"{"command":"answer","stepId":"c","value":"loop"}"#,
            #"{"command":"answer","stepId":"c","value":"fine"}"#, #"{"command":"next"}"#, #"{"command":"next"}"#,
        ]
        let result = try PluginTests.run(
            [
                "run", file, "--renderer", "json", "--no-store", "--plugin", plugin, "--isolate-plugins",
                "--plugin-timeout", "0.5",
            ], stdin: commands.joined(separator: "\n") + "\n")
        #expect(result.status == 0, "\(result.stderr)")
        let events = result.stdout.split(separator: "\n").map(String.init)
        #expect(events.filter { $0.contains(#""code":"pluginFailure""#) }.count == 2)
        #expect(events.last?.contains(#""answers":{"c":"fine","n":-1}"#) == true)
        // The crashed function made {doubled} empty; the run went on.
        #expect(events.contains { $0.contains(#""title":"Doubled: ""#) })
        let diagnostics = result.stderr.split(separator: "\n").map(String.init)
        #expect(
            diagnostics == [
                "survey: plugin \(plugin): function 'double_or_crash': the plugin host crashed (signal 11, Segmentation fault) during function 'double_or_crash'; it restarts for the next call",
                "survey: plugin \(plugin): question type 'crashy': the plugin host crashed (signal 11, Segmentation fault) during normalize; it restarts for the next call",
                "survey: plugin \(plugin): question type 'crashy': normalize did not answer within 0.5 s; the plugin host was stopped and restarts for the next call",
            ])
    }

    @Test func theExamplePluginsPassTheirScriptsIsolated() throws {
        let result = try PluginTests.run(
            [
                "test", PluginTests.survey, "--answers", PluginTests.overScript, "--expect-path",
                PluginTests.overPath.joined(separator: ","), "--isolate-plugins",
            ] + PluginTests.examplePlugins)
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func timeoutUsageErrors() throws {
        let plugin = PluginTests.library("ColorPicker")
        let zero = try PluginTests.run(["types", "--plugin", plugin, "--isolate-plugins", "--plugin-timeout", "0"])
        #expect(zero.status == 2)
        #expect(zero.stderr.hasPrefix("survey types: --plugin-timeout must be a number of seconds above 0"))
        let alone = try PluginTests.run(["types", "--plugin", plugin, "--plugin-timeout", "3"])
        #expect(alone.status == 2)
        #expect(alone.stderr.hasPrefix("survey types: --plugin-timeout only applies with --isolate-plugins"))
    }
}

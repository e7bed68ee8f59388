import Foundation
import SurveyCore
import SurveyPluginLoader
import Testing

/// `--isolate-plugins`: plugin calls in the `survey plugin-host` child process. A crash or a hang
/// fails one call with a clear diagnostic, the child is replaced and the next call works.
@Suite struct IsolationTests {
    static let host = PluginFixtures.binDirectory + "/survey"

    func isolation(timeout: Double = PluginIsolation.defaultTimeout) -> PluginIsolation {
        PluginIsolation(executable: Self.host, timeout: timeout)
    }

    /// The crashing fixture's type and function, loaded isolated.
    func crashing(timeout: Double = 5, log: DiagnosticsLog) throws -> (ConfiguredQuestion, ExpressionFunction) {
        let plugins = try PluginLoader(isolation: isolation(timeout: timeout), diagnostics: log.append).load(
            paths: [PluginFixtures.library("BrokenCrashing")], environment: [:])
        let plugin = try #require(plugins.first)
        let type = try #require(plugin.questionTypes.first)
        let function = try #require(plugin.functions.first)
        return (try PluginFixtures.configure(type, [:]), function)
    }

    /// The normalized answer, or the error's code and message.
    func outcome(_ question: ConfiguredQuestion, _ answer: JSONValue) -> String {
        do {
            return try question.normalize(answer).description
        } catch {
            return "\(error.code): \(error.message)"
        }
    }

    @Test func isolatedPluginsBehaveExactlyLikeLoadedOnes() throws {
        let paths = ["ColorPicker", "CStarPlugin", "HealthFunctions"].map(PluginFixtures.library)
        let inProcess = try PluginLoader().load(paths: paths, environment: [:])
        let isolated = try PluginLoader(isolation: isolation()).load(paths: paths, environment: [:])
        #expect(isolated.map(\.name) == inProcess.map(\.name))
        #expect(isolated.map(\.version) == inProcess.map(\.version))
        #expect(isolated.map(\.functionSignatures) == inProcess.map(\.functionSignatures))
        #expect(isolated.map(\.optionsSchemas) == inProcess.map(\.optionsSchemas))
        #expect(isolated.flatMap(\.questionTypes).map(\.typeID) == inProcess.flatMap(\.questionTypes).map(\.typeID))
        #expect(isolated.flatMap(\.questionTypes).map(\.origin) == paths.dropLast())

        let french = PresentationContext(locale: "fr", defaultLocale: "en")
        for (left, right) in zip(inProcess.flatMap(\.questionTypes), isolated.flatMap(\.questionTypes)) {
            let options: JSONValue = left.typeID == "color" ? ["palette": ["#f00", "#0f0"]] : [:]
            let direct = try PluginFixtures.configure(left, options)
            let remote = try PluginFixtures.configure(right, options)
            #expect(remote.input(in: french) == direct.input(in: french))
            for answer: JSONValue in ["#f00", 3, 9, "x"] {
                #expect(outcome(remote, answer) == outcome(direct, answer))
            }
            #expect(remote.summarize(["#FF0000", 3], in: french) == direct.summarize(["#FF0000", 3], in: french))
        }
        let context = FunctionContext(today: "2026-01-01")
        for (left, right) in zip(inProcess.flatMap(\.functions), isolated.flatMap(\.functions)) {
            #expect(right.name == left.name)
            #expect(right.arity == left.arity)
            for arguments: [JSONValue] in [[70, 175], ["Ada Lovelace"], [30], [.null]]
            where left.arity.contains(arguments.count) {
                #expect(try right.call(arguments, context: context) == left.call(arguments, context: context))
            }
        }
    }

    @Test func aCrashingCallFailsThatCallAndTheNextOneWorks() throws {
        let log = DiagnosticsLog()
        let (question, function) = try crashing(log: log)
        #expect(try question.normalize("hello") == "hello")
        let error = PluginFixtures.error { () throws(AnswerError) in _ = try question.normalize("crash") }
        #expect(error?.code == "pluginFailure")
        #expect(error?.message == "This answer could not be checked. Please try again.")
        #expect(
            log.lines.last
                == PluginFixtures.library("BrokenCrashing")
                + ": question type 'crashy': the plugin host crashed (signal 11, Segmentation fault) during normalize; it restarts for the next call"
        )
        // A new child serves the next call.
        #expect(try question.normalize("again") == "again")

        let context = FunctionContext(today: "2026-01-01")
        #expect(try function.call([21], context: context) == 42)
        #expect(try function.call([-1], context: context) == .null)
        #expect(
            log.lines.last?.hasSuffix(
                "function 'double_or_crash': the plugin host crashed (signal 11, Segmentation fault) during function 'double_or_crash'; it restarts for the next call"
            ) == true)
        #expect(try function.call([4], context: context) == 8)
    }

    @Test func aCallThatNeverReturnsIsStoppedAtTheTimeout() throws {
        let log = DiagnosticsLog()
        let (question, _) = try crashing(timeout: 0.5, log: log)
        let started = ContinuousClock.now
        let error = PluginFixtures.error { () throws(AnswerError) in _ = try question.normalize("loop") }
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(error?.code == "pluginFailure")
        #expect(
            log.lines.last?.hasSuffix(
                "question type 'crashy': normalize did not answer within 0.5 s; the plugin host was stopped and restarts for the next call"
            ) == true)
        #expect(try question.normalize("fine") == "fine")
    }

    @Test func whatAPluginPrintsCannotBeMistakenForAReply() throws {
        let log = DiagnosticsLog()
        let (question, _) = try crashing(log: log)
        // The fixture prints {"json":"not from the host"} to its standard output first.
        #expect(try question.normalize("print this") == "print this")
        #expect(try question.normalize("then this") == "then this")
    }

    @Test func loadErrorsAreTheSameAsWithoutIsolation() {
        for name in ["BrokenABIVersion", "BrokenStructSize", "BrokenNoEntry"] {
            let path = PluginFixtures.library(name)
            let direct = PluginFixtures.error { () throws(PluginError) in _ = try PluginLoader().load(path: path) }
            let isolated = PluginFixtures.error { () throws(PluginError) in
                _ = try PluginLoader(isolation: isolation()).load(path: path)
            }
            #expect(direct != nil)
            #expect(isolated == direct)
        }
    }

    @Test func aMissingHostProgramIsAClearLoadError() {
        let path = PluginFixtures.library("ColorPicker")
        let error = PluginFixtures.error { () throws(PluginError) in
            _ = try PluginLoader(isolation: PluginIsolation(executable: "/nonexistent/survey")).load(path: path)
        }
        #expect(error?.kind == .hostFailure)
        #expect(
            error?.description == path
                + ": cannot start the plugin host /nonexistent/survey (No such file or directory)")
    }

    /// The wire protocol as docs/plugin-abi.md ("Isolated plugins") describes it, spoken to
    /// `survey plugin-host` over plain pipes.
    @Test func thePluginHostSpeaksTheDocumentedProtocol() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.host)
        process.arguments = [
            "plugin-host", PluginFixtures.library("HealthFunctions"), PluginFixtures.library("ColorPicker"),
        ]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let requests = [
            #"{"function": "bmi", "plugin": 0, "arguments": [70, 175]}"#,
            ##"{"call": "normalize", "plugin": 1, "type": "color", "options": "{}", "argument": "\"#f80\""}"##,
            #"{"call": "normalize", "plugin": 1, "type": "nothing", "options": "{}", "argument": "1"}"#,
        ]
        input.fileHandleForWriting.write(Data((requests.joined(separator: "\n") + "\n").utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let lines = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .split(separator: "\n").map { try? JSONParser.parse(String($0)) }
        try #require(lines.count == 4)
        let plugins = try #require(lines[0]?["plugins"]?.arrayValue)
        #expect(plugins.map { $0["name"]?.stringValue } == ["health-functions", "color-picker"])
        #expect(plugins[0]["functions"]?.arrayValue?.first?["signature"] == "bmi(double, double) -> double")
        #expect(plugins[1]["types"]?.arrayValue?.first?["callbacks"]?.arrayValue?.contains("normalize") == true)
        let bmi = try #require(lines[1]?["value"]?.numberValue)
        #expect(abs(bmi - 22.857) < 0.001)
        #expect(lines[2] == ["json": ["ok": "#FF8800"]])
        #expect(lines[3]?["failure"]?["message"] == "the request names no callback of a loaded question type")
    }
}

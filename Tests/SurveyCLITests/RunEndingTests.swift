import Foundation
import Synchronization
import Testing

/// How `survey run` ends: every JSON run with an event, and nothing lost without a store.
@Suite struct RunEndingTests {
    static let feedback = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples/feedback.json").path
    static let onboarding = Fixtures.path("onboarding.json")

    /// The JSON objects of `output`'s lines.
    static func events(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test func aRespondentNotAskedAgainGetsANotAskedEvent() throws {
        let directory = try Fixtures.temporaryDirectory()
        let survey = directory.appendingPathComponent("monthly.json")
        let text = try String(contentsOfFile: Self.feedback, encoding: .utf8)
            .replacingOccurrences(
                of: #""defaultLocale": "en","#, with: #""defaultLocale": "en", "settings": {"askAgain": "P30D"},"#)
        try Data(text.utf8).write(to: survey)
        let environment = ["XDG_DATA_HOME": directory.appendingPathComponent("xdg").path]
        let arguments = ["run", survey.path, "--renderer", "json", "--respondent", "r1"]
        let first = try SurveyBinary.run(
            arguments, stdin: #"{"command":"answer","stepId":"export-rating","value":4}"# + "\n\"next\"\n",
            environment: environment, directory: directory)
        #expect(first.status == 0, "\(first.stderr)")
        let second = try SurveyBinary.run(arguments, environment: environment, directory: directory)
        #expect(second.status == 0, "the exit code is unchanged")
        let events = try Self.events(second.stdout)
        #expect(events.count == 1, "\(second.stdout)")
        let event = try #require(events.first)
        #expect(event["event"] as? String == "not-asked")
        #expect(event["reason"] as? String == "completed")
        #expect(event["rule"] as? String == "recontact")
        #expect(event["respondentId"] as? String == "r1")
        #expect(event["surveyId"] as? String == "in-app-feedback")
        #expect(event["askAgain"] as? String == "P30D")
        let finished = try #require(event["finishedAt"] as? String)
        let again = try #require(event["askedAgainFrom"] as? String)
        #expect(again > finished)
        let message = try #require(event["message"] as? String)
        #expect(message.contains("already completed 'in-app-feedback' on \(finished)"))
        #expect(message.contains("it will be asked again from \(again)"))
        #expect(second.stderr.contains(message), "stderr says the same")
    }

    /// The Python client, run twice as the same respondent: the second run says why nothing was asked.
    @Test func thePythonClientReportsWhyItWasNotAsked() throws {
        let python = try #require(CLITests.python3, "python3 is needed for this test")
        let directory = try Fixtures.temporaryDirectory()
        let answers = directory.appendingPathComponent("answers.json")
        try Data(#"{"export-rating": 4}"#.utf8).write(to: answers)
        let client = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("clients/python/survey_client.py").path
        func run() throws -> SurveyBinary.Result {
            try SurveyBinary.run(
                [
                    "-c", "\"$0\" \"$1\" \"$2\" \"$3\" \"$4\"", python, client, SurveyBinary.url.path, Self.feedback,
                    answers.path,
                ],
                environment: ["XDG_DATA_HOME": directory.appendingPathComponent("xdg").path], directory: directory,
                shell: true)
        }
        let first = try run()
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains(#""export-rating": 4"#))
        let second = try run()
        #expect(second.status == 1)
        #expect(second.stderr.contains("the survey did not complete: not-asked: '"), "\(second.stderr)")
        #expect(second.stderr.contains("already completed 'in-app-feedback' on "))
    }

    @Test func aSurveyThatCannotBeLoadedEndsWithAFailedEvent() throws {
        let directory = try Fixtures.temporaryDirectory()
        try Data(#"{"formatVersion": 1, "id": "x"}"#.utf8).write(to: directory.appendingPathComponent("bad.json"))
        let result = try SurveyBinary.run(
            ["run", "bad.json", "--renderer", "json", "--no-store"], directory: directory)
        #expect(result.status == 1)
        let events = try Self.events(result.stdout)
        #expect(events.count == 1)
        #expect(events.first?["event"] as? String == "failed")
        #expect(events.first?["code"] as? String == "surveyNotLoaded")
        #expect(events.first?["exitCode"] as? Int == 1)
        let message = try #require(events.first?["message"] as? String)
        #expect(message.hasPrefix("bad.json:1:1: "))
        #expect(result.stderr.contains(message))
    }

    @Test func anUnreachableStoreEndsWithAFailedEvent() throws {
        let directory = try Fixtures.temporaryDirectory()
        let result = try SurveyBinary.run(
            ["run", Self.feedback, "--renderer", "json", "--store", "postgres://nobody@127.0.0.1:1/none"],
            directory: directory)
        #expect(result.status == 1)
        let events = try Self.events(result.stdout)
        #expect(events.count == 1, "\(result.stdout)")
        #expect(events.first?["event"] as? String == "failed")
        #expect(events.first?["code"] as? String == "storeUnavailable")
    }

    @Test func aWrongOptionValueEndsWithAFailedEventAndExitCode2() throws {
        let result = try SurveyBinary.run(
            ["run", Self.feedback, "--renderer", "json", "--no-store", "--seed", "many"],
            directory: try Fixtures.temporaryDirectory())
        #expect(result.status == 2)
        let events = try Self.events(result.stdout)
        #expect(events.first?["code"] as? String == "invalidArguments")
        #expect(events.first?["exitCode"] as? Int == 2)
    }

    // MARK: without a store

    @Test func anExplicitStateFileWithAnUnfinishedSessionIsNotOverwritten() throws {
        let directory = try Fixtures.temporaryDirectory()
        let arguments = ["run", Self.onboarding, "--no-store", "--state-file", "mine.json"]
        let first = try SurveyBinary.run(arguments, stdin: "\ngoogle\n", directory: directory)
        #expect(first.status == 0, "\(first.stderr)")
        let file = directory.appendingPathComponent("mine.json")
        let saved = try String(contentsOf: file, encoding: .utf8)
        #expect(saved.contains(#""source": "google""#))

        let second = try SurveyBinary.run(arguments, stdin: "\n", directory: directory)
        #expect(second.status == 1)
        #expect(
            second.stderr.contains(
                "mine.json: holds an unfinished session of 'onboarding'; continue it with --resume mine.json"))
        #expect(!second.stdout.contains("Welcome"), "refused before the first question: \(second.stdout)")
        #expect(try String(contentsOf: file, encoding: .utf8) == saved)

        let json = try SurveyBinary.run(arguments + ["--renderer", "json"], directory: directory)
        #expect(json.status == 1)
        #expect(try Self.events(json.stdout).map { $0["code"] as? String } == ["stateNotUsable"])

        // Continuing it into the same file is what it is for.
        let resumed = try SurveyBinary.run(
            arguments + ["--resume", "mine.json"], stdin: "learn\n", directory: directory)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try String(contentsOf: file, encoding: .utf8).contains(#""goals""#))
    }

    @Test func resumingOneFileDoesNotOverwriteAnotherUnfinishedOne() throws {
        let directory = try Fixtures.temporaryDirectory()
        let first = try SurveyBinary.run(
            ["run", Self.onboarding, "--no-store"], stdin: "\ngoogle\n", directory: directory)
        #expect(first.status == 0)
        let defaultFile = directory.appendingPathComponent("onboarding.state.json")
        try FileManager.default.copyItem(at: defaultFile, to: directory.appendingPathComponent("copy.json"))
        let second = try SurveyBinary.run(
            ["run", Self.onboarding, "--no-store", "--resume", "copy.json"], stdin: "\n", directory: directory)
        #expect(second.status == 1)
        #expect(second.stderr.contains("onboarding.state.json: holds an unfinished session"))
    }

    @Test(arguments: ["missing-folder/state.json", "a-file/state.json"])
    func anUnwritableStateFileIsRefusedBeforeTheFirstQuestion(path: String) throws {
        let directory = try Fixtures.temporaryDirectory()
        try Data("not a folder".utf8).write(to: directory.appendingPathComponent("a-file"))
        let result = try SurveyBinary.run(
            ["run", Self.onboarding, "--no-store", "--state-file", path], stdin: "\ngoogle\n", directory: directory)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("\(path): cannot save the session state in"), "\(result.stderr)")
        #expect(result.stdout.isEmpty, "nothing was asked: \(result.stdout)")
    }

    @Test func aClosedOutputSavesTheTerminalSessionToo() throws {
        let directory = try Fixtures.temporaryDirectory()
        let process = Process()
        process.executableURL = SurveyBinary.url
        process.arguments = ["run", Self.onboarding, "--no-store", "--state-file", "s.json"]
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data("\ngoogle\n".utf8))
        var seen = ""
        // The third question's prompt: both answers are taken, and the engine waits for more.
        while !seen.contains("What do you want to do?") {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            seen += String(decoding: data, as: UTF8.self)
        }
        try output.fileHandleForReading.close()
        input.fileHandleForWriting.write(Data("b\n".utf8))
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        #expect(process.terminationStatus == 141)
        let state = try String(contentsOf: directory.appendingPathComponent("s.json"), encoding: .utf8)
        #expect(state.contains(#""source": "google""#), "\(state)")
    }

    @Test func aClosedOutputSavesTheSessionAndEndsWith141() throws {
        let directory = try Fixtures.temporaryDirectory()
        let process = Process()
        process.executableURL = SurveyBinary.url
        process.arguments = ["run", Self.onboarding, "--renderer", "json", "--no-store", "--state-file", "s.json"]
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = directory.appendingPathComponent("xdg").path
        process.environment = environment
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // A run that never gets as far as the test expects is killed, so the test fails, not hangs.
        let child = process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + 60) { kill(child, SIGKILL) }
        func readUntil(_ marker: String) {
            var seen = ""
            while !seen.contains(marker) {
                let data = output.fileHandleForReading.availableData
                if data.isEmpty { return }
                seen += String(decoding: data, as: UTF8.self)
            }
        }
        input.fileHandleForWriting.write(Data("\"next\"\n".utf8))
        // The end of the `progress` event, the last before the engine waits for a command.
        readUntil(#""unitId":"source"}"# + "\n")
        try output.fileHandleForReading.close()
        // The reply to this answer cannot be written: the engine saves the session and stops, with
        // stdin still open.
        input.fileHandleForWriting.write(Data(#"{"command":"answer","stepId":"source","value":"google"}"#.utf8 + [10]))
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        #expect(process.terminationStatus == 141)
        let state = try String(contentsOf: directory.appendingPathComponent("s.json"), encoding: .utf8)
        #expect(state.contains(#""status": "in-progress""#))
        #expect(state.contains(#""source": "google""#))
    }

    /// Without a store, SIGTERM, SIGINT and SIGHUP save the session to its state file (every
    /// acknowledged answer in it) before the run ends with 128 + the signal; the JSON run's last event says so.
    @Test(arguments: SignalTests.cases)
    func aSignalWithoutAStoreSavesTheSessionFirst(signal: Int32, status: Int32) throws {
        let directory = try Fixtures.temporaryDirectory()
        let (process, input, output, errors) = try SurveyBinary.start(
            ["run", Self.onboarding, "--renderer", "json", "--no-store", "--state-file", "s.json"],
            directory: directory, killAfter: 30)
        input.fileHandleForWriting.write(
            Data(("\"next\"\n" + #"{"command":"answer","stepId":"source","value":"google"}"# + "\n").utf8))
        var received = ""
        let reader = output.fileHandleForReading
        while !received.contains(#""event":"answered""#) {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            received += String(decoding: chunk, as: UTF8.self)
        }
        #expect(received.contains(#""event":"answered""#))
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        #expect(process.terminationStatus == status)
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(message.contains("the session was saved to s.json; continue it with --resume s.json"), "\(message)")
        received += String(decoding: reader.readDataToEndOfFile(), as: UTF8.self)
        let events = try Self.events(received)
        #expect(events.dropLast().last?["event"] as? String == "quit")
        let last = try #require(events.last)
        #expect(last["event"] as? String == "failed")
        #expect(last["code"] as? String == "stoppedBySignal")
        #expect(last["exitCode"] as? Int == Int(status))
        let state = try String(contentsOf: directory.appendingPathComponent("s.json"), encoding: .utf8)
        #expect(state.contains(#""status": "in-progress""#))
        #expect(state.contains(#""source": "google""#), "\(state)")
        // The saved session continues where the signal stopped it.
        let resumed = try SurveyBinary.run(
            ["run", Self.onboarding, "--no-store", "--resume", "s.json", "--renderer", "json"], stdin: "",
            directory: directory)
        #expect(resumed.stdout.contains(#""source":"google""#), "\(resumed.stdout)")
    }

    /// The terminal front end saves the session on a signal too, without a store.
    @Test func aSignalSavesTheTerminalSessionWithoutAStore() throws {
        let directory = try Fixtures.temporaryDirectory()
        let process = Process()
        process.executableURL = SurveyBinary.url
        process.arguments = ["run", Self.onboarding, "--no-store", "--state-file", "s.json"]
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let child = process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + 30) { kill(child, SIGKILL) }
        input.fileHandleForWriting.write(Data("\ngoogle\n".utf8))
        var seen = ""
        while !seen.contains("What do you want to do?") {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            seen += String(decoding: data, as: UTF8.self)
        }
        // Half a line typed: it is dropped, not taken as an answer.
        input.fileHandleForWriting.write(Data("b".utf8))
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        #expect(process.terminationStatus == 143)
        let state = try String(contentsOf: directory.appendingPathComponent("s.json"), encoding: .utf8)
        #expect(state.contains(#""source": "google""#), "\(state)")
    }

    /// Whether `process` has `signal` pending, not yet taken by a thread (`/proc/PID/status`, ShdPnd).
    static func isPending(_ signal: Int32, in process: Int32) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(process)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("ShdPnd:") }),
            let mask = UInt64(line.dropFirst("ShdPnd:".count).trimmingCharacters(in: .whitespaces), radix: 16)
        else { return false }
        return mask & (UInt64(1) << UInt64(signal - 1)) != 0
    }

    /// Sends `signals` to `process` one after the other, each once the one before was taken by the
    /// process (so two alike are two signals, not one pending twice); at most 5 s for each.
    static func send(_ signals: [Int32], to process: Int32) {
        for signal in signals {
            kill(process, signal)
            let deadline = Date().addingTimeInterval(5)
            while isPending(signal, in: process), Date() < deadline { usleep(200) }
        }
    }

    /// Runs a JSON run without a store on a one-text-step survey, answers it with a large text (so
    /// the save takes a while) and sends `signals` once the answer is acknowledged; gives the exit
    /// status, stderr and the state file's answer length (nil when no state file was written).
    static func runStopped(by signals: [Int32]) throws -> (status: Int32, stderr: String, savedLength: Int?) {
        let directory = try Fixtures.temporaryDirectory()
        let survey = directory.appendingPathComponent("note.json")
        let steps =
            #"[{"id": "note", "type": "text", "title": "Say"}, {"id": "more", "type": "text", "title": "More"}]"#
        try Data((#"{"formatVersion": 1, "id": "note", "version": "1", "title": "Note", "steps": "# + steps + "}").utf8)
            .write(to: survey)
        let (process, input, output, errors) = try SurveyBinary.start(
            ["run", survey.path, "--renderer", "json", "--no-store", "--state-file", "s.json"],
            directory: directory, killAfter: 60)
        // Read stdout and stderr as they come, so neither pipe fills.
        let received = Mutex(Data())
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            while case let chunk = output.fileHandleForReading.availableData, !chunk.isEmpty {
                received.withLock { $0.append(chunk) }
            }
            done.signal()
        }
        let text = String(repeating: "a", count: 8_000_000)
        input.fileHandleForWriting.write(
            Data((#"{"command":"answer","stepId":"note","value":""# + text + "\"}\n").utf8))
        let answered = Data(#""event":"answered""#.utf8)
        let acknowledged = Date().addingTimeInterval(50)
        while received.withLock({ $0.range(of: answered) == nil }), Date() < acknowledged, process.isRunning {
            usleep(10_000)
        }
        send(signals, to: process.processIdentifier)
        process.waitUntilExit()
        done.wait()
        try? input.fileHandleForWriting.close()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        var savedLength: Int?
        if let data = try? Data(contentsOf: directory.appendingPathComponent("s.json")),
            let state = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let answers = state["answers"] as? [String: Any], let note = answers["note"] as? String
        {
            savedLength = note.count
        }
        return (process.terminationStatus, message, savedLength)
    }

    /// A stop signal that comes while the session is being saved (Ctrl-C pressed twice; SIGTERM
    /// after SIGINT) is held: the state file is written with every answer, and the run ends with the
    /// first signal's status.
    @Test(arguments: [(SIGINT, SIGINT), (SIGINT, SIGTERM), (SIGTERM, SIGHUP), (SIGHUP, SIGINT)])
    func aSecondSignalWhileSavingIsHeldUntilTheSessionIsSaved(first: Int32, second: Int32) throws {
        let run = try Self.runStopped(by: [first, second])
        #expect(run.status == 128 + first, "\(run.stderr)")
        #expect(run.savedLength == 8_000_000, "\(run.stderr)")
        #expect(run.stderr.contains("the session was saved to s.json"), "\(run.stderr)")
    }

    /// The signal after the held one ends the run at once, without waiting for the save.
    @Test func aThirdSignalEndsTheRunAtOnce() throws {
        let run = try Self.runStopped(by: [SIGTERM, SIGTERM, SIGINT])
        #expect(run.status == 130, "\(run.stderr)")
        #expect(run.stderr.contains("stopped by a signal; no store was used"), "\(run.stderr)")
        #expect(!run.stderr.contains("the session was saved"), "\(run.stderr)")
    }
}

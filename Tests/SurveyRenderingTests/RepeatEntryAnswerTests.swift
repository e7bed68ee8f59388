import Foundation
import SurveyBuiltins
import SurveyCore
import SurveyRendering
import Testing

/// Answers to one entry of a list answer, `id[k]`: a repeat's instances one by one, through the
/// session, replay, answer scripts, the terminal and the JSON-event protocol.
@Suite struct RepeatEntryAnswerTests {
    static func pets() throws -> Survey {
        try SurveyLoader(registry: .builtins()).load(
            text: """
                {"formatVersion": 1, "id": "pets", "title": "Pets", "steps": [
                  {"id": "pets", "type": "repeat", "required": true, "options": {"maxCount": 3, "items": [
                    {"name": "kind", "required": true},
                    {"name": "age", "type": "number", "options": {"min": 0, "max": 40}},
                    {"name": "vet", "visibleIf": "{panel.age} >= 10"}]}},
                  {"id": "colours", "type": "multiple-choice", "options": {"choices": ["red", "green", "blue"]}},
                  {"id": "old", "type": "text", "visibleIf": "countInArray({pets}, 'vet') > 0"}
                ]}
                """, source: "pets.json")
    }

    @Test func anEntryIsAddedChangedAndRemovedAndOnlyItIsChecked() throws {
        var session = SurveySession(survey: try Self.pets())
        #expect(
            try session.answer(["kind": "cat", "age": 12, "vet": "Dr Who"], for: "pets[0]") == [
                "kind": "cat", "age": 12, "vet": "Dr Who",
            ])
        try session.answer(["kind": "dog", "age": 3, "vet": "hidden"], for: "pets[1]")
        // The hidden item is dropped from its own instance only.
        #expect(
            session.answer(for: "pets") == [["kind": "cat", "age": 12, "vet": "Dr Who"], ["kind": "dog", "age": 3]])
        try session.answer(["kind": "dog", "age": 11, "vet": "Dr No"], for: "pets[1]")
        #expect(session.answer(for: "pets")?.arrayValue?.count == 2)
        // Out of range: the message says how many there are and how to add one.
        do {
            try session.answer(["kind": "fish"], for: "pets[5]")
            Issue.record("an entry past the end was taken")
        } catch {
            guard case .invalidAnswer(let stepError) = error else { throw error }
            #expect(stepError.stepID == "pets[5]" && stepError.error.code == "noSuchEntry")
            #expect(stepError.message.contains("'pets[2]'"))
        }
        // Each entry is checked by its items' kinds, with the error naming the entry.
        do {
            try session.answer(["kind": "fish", "age": 99], for: "pets[2]")
            Issue.record("an age above the maximum was taken")
        } catch {
            guard case .invalidAnswer(let stepError) = error else { throw error }
            #expect(stepError.error.code == "aboveMaximum" && stepError.error.field == "2.age")
        }
        try session.answer(["kind": "fish"], for: "pets[2]")
        do {
            try session.answer(["kind": "bird"], for: "pets[3]")
            Issue.record("a fourth pet beyond maxCount was taken")
        } catch {
            guard case .invalidAnswer(let stepError) = error else { throw error }
            #expect(stepError.error.code == "tooManyEntries")
        }
        // null removes the entry; the later ones move up.
        #expect(try session.answer(.null, for: "pets[0]") == .null)
        #expect(
            session.answer(for: "pets") == [["kind": "dog", "age": 11, "vet": "Dr No"], ["kind": "fish"]])
        #expect(session.actions.last == .answer(stepID: "pets[0]", value: .null))
        // Resume replays the entry answers through the same checks.
        let resumed = try SurveySession(survey: try Self.pets(), resuming: session.state)
        #expect(resumed.answer(for: "pets") == session.answer(for: "pets"))
        // Removing every entry leaves no answer, and Next wants one.
        try session.answer(.null, for: "pets[0]")
        try session.answer(.null, for: "pets[0]")
        #expect(session.answer(for: "pets") == nil)
        guard case .blocked(let errors) = session.next() else {
            Issue.record("a required repeat with no entry went on")
            return
        }
        #expect(errors.map(\.stepID) == ["pets"])
    }

    @Test func entriesOfAnyListAnswerGoThroughItsType() throws {
        var session = SurveySession(survey: try Self.pets())
        try session.answer(["kind": "cat", "age": 12, "vet": "Dr Who"], for: "pets[0]")
        session.next()
        #expect(session.currentStepIDs == ["colours"])
        try session.answer("blue", for: "colours[0]")
        try session.answer("red", for: "colours[1]")
        #expect(session.answer(for: "colours") == ["blue", "red"])
        do {
            try session.answer("pink", for: "colours[2]")
            Issue.record("a non-choice was taken")
        } catch {
            guard case .invalidAnswer(let stepError) = error else { throw error }
            #expect(stepError.error.code == "notAChoice")
        }
        #expect(session.answer(for: "colours") == ["blue", "red"])
        // A key that names no step, or an entry of a step not shown now, is refused as such.
        #expect(throws: SessionError.self) { try session.answer("x", for: "nothing[0]") }
        #expect(throws: SessionError.self) { try session.answer(["kind": "dog"], for: "pets[1]") }
        // A cross-instance reader saw the entry answers.
        session.next()
        #expect(session.currentStepIDs == ["old"])
        #expect(session.survey.stepID(forAnswerKey: "colours[1]") == "colours")
        #expect(session.survey.isAnswerKey("pets[12]") && !session.survey.isAnswerKey("pets[x]"))
    }

    @Test func anAnswerScriptMayAnswerEntries() throws {
        let script = try AnswerScript(
            json: [
                "actions": [
                    ["command": "answer", "stepId": "pets[0]", "value": ["kind": "cat"]],
                    ["command": "answer", "stepId": "pets[1]", "value": ["kind": "dog"]],
                    "next", "next",
                ]
            ])
        let run = HeadlessRun(survey: try Self.pets(), script: script)
        #expect(run.failure == nil)
        #expect(run.answers["pets"] == [["kind": "cat"], ["kind": "dog"]])
        let typo = try AnswerScript(json: [
            "actions": [["command": "answer", "stepId": "pest[0]", "value": ["kind": "cat"]]]
        ])
        #expect(HeadlessRun(survey: try Self.pets(), script: typo).failure?.code == "unknownStep")
    }

    @Test func theTerminalSendsEntriesAndRemovesOne() throws {
        var sent: [String] = []
        var output = ""
        var renderer = TextRenderer(
            input: ArrayLineSource(["y", "cat", "", "y", "dog", "", "-1", "-5", "n", "", ""]), style: .plain
        ) { output += $0 }
        var session = SurveySession(survey: try Self.pets())
        session.observe { event in
            if case .answered(let key, _) = event { sent.append(key) }
        }
        var driver = SurveyDriver(session: session)
        let outcome = driver.run(with: &renderer)
        #expect(output.contains("[y/N, -N removes entry N]"))
        #expect(sent.prefix(3) == ["pets[0]", "pets[1]", "pets[0]"])
        #expect(outcome.result?.answers["pets"] == [["kind": "dog"]])
    }

    @Test func theProtocolTakesEntries() throws {
        let (outcome, events) = runJSON(
            try Self.pets(),
            [
                #"{"command":"answer","stepId":"pets[0]","value":{"kind":"cat","age":2}}"#,
                #"{"command":"answer","stepId":"pets[1]","value":{"kind":"dog","age":50}}"#,
                #"{"command":"answer","stepId":"pets[1]","value":{"kind":"dog","age":5}}"#,
                #"{"command":"next"}"#, #"{"command":"next"}"#, #"{"command":"next"}"#,
            ])
        let answered = events.filter { $0.event == "answered" }
        #expect(answered.map { $0["stepId"] } == ["pets[0]", "pets[1]"])
        #expect(answered.last?["value"] == ["kind": "dog", "age": 5])
        let refused = events.first { $0.event == "validation-error" }?["errors"]?.arrayValue?.first
        #expect(refused?["stepId"] == "pets[1]" && refused?["field"] == "1.age")
        #expect(outcome.result?.answers["pets"] == [["kind": "cat", "age": 2], ["kind": "dog", "age": 5]])
    }
}

/// A repeat counts one question per instance in progress ("question k of n").
@Suite struct RepeatProgressTests {
    @Test func progressCountsTheInstancesTheRespondentWillSee() throws {
        var session = SurveySession(survey: try RepeatFrontEndTests.load())
        #expect(session.progress == Progress(current: 1, total: 1, isCounted: true))
        try session.answer(3, for: "children")
        // children, then three children, ahead.
        #expect(session.progress.total == 4)
        session.next()
        #expect(session.progress == Progress(current: 2, total: 4, isCounted: true))
        for (index, age) in [7, 5, 9].enumerated() {
            try session.answer(
                ["name": .string("C\(index)"), "age": .number(Double(age)), "school": "S"], for: "kids[\(index)]")
        }
        session.next()
        // `older` is shown (the ages add up to more than 10): it comes after the three children.
        #expect(session.currentStepIDs == ["older"])
        #expect(session.progress == Progress(current: 5, total: 5, isCounted: true))
        // Back to the count: fewer children, fewer questions ahead.
        try session.back()
        try session.back()
        #expect(session.progress.current == 1)
        try session.answer(1, for: "children")
        // children and one child (`older` reads the children's answers, which count again once
        // the repeat is on the path).
        #expect(session.progress.total == 2)
        let resumed = try SurveySession(survey: try RepeatFrontEndTests.load(), resuming: session.state)
        #expect(resumed.progress == session.progress)
    }

    @Test func anOpenRepeatCountsTheInstancesAddedSoFar() throws {
        var session = SurveySession(survey: try RepeatEntryAnswerTests.pets())
        #expect(session.progress.total == 2)
        try session.answer(["kind": "cat"], for: "pets[0]")
        try session.answer(["kind": "dog"], for: "pets[1]")
        #expect(session.progress == Progress(current: 1, total: 3, isCounted: true))
        session.next()
        #expect(session.progress == Progress(current: 3, total: 3, isCounted: true))
    }
}

/// Loop & merge pipes the chosen choice's label, in the respondent's language.
@Suite struct RepeatLoopLabelTests {
    @Test func itemIsTheChoiceLabel() throws {
        let survey = try SurveyLoader(registry: .builtins()).load(
            text: """
                {"formatVersion": 1, "id": "gym", "title": "Gym", "steps": [
                  {"id": "services", "type": "multiple-choice", "options": {"choices": [
                    {"value": "gym", "label": {"en": "Gym membership", "fr": "Abonnement salle"}},
                    {"value": "pool", "label": "Pool"}]}},
                  {"id": "rate", "type": "repeat", "options": {"eachOf": "services", "itemTitle": "About {item}",
                    "items": [{"name": "score", "type": "number"}]}}]}
                """, source: "gym.json")
        for (locale, title) in [("en", "About Gym membership"), ("fr", "About Abonnement salle")] {
            var session = SurveySession(survey: survey, locale: locale)
            try session.answer(["pool", "gym"], for: "services")
            session.next()
            guard case .repeating(let group) = session.currentStep?.questions.first?.input else {
                Issue.record("not a repeat")
                return
            }
            #expect(group.instanceTitles.contains(title), "\(group.instanceTitles)")
            #expect(group.instanceTitles.contains("About Pool"))
        }
    }
}

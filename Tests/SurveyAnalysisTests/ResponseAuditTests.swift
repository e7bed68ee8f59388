import Foundation
import SurveyAnalysis
import SurveyBuiltins
import SurveyCore
import SurveyImport
import Testing

/// `ResponseAudit`: each problem code found where it applies and not where it does not; the example
/// surveys' generated paths audit clean, and tampered copies of them are caught with the right code.
@Suite("Response audit")
struct ResponseAuditTests {
    static let text = """
        {"formatVersion": 1, "id": "audit", "title": "Audit",
         "calculatedValues": [{"name": "double", "expression": "{age} * 2", "includeIntoResult": true}],
         "triggers": [{"type": "complete", "if": "{consent} = 'no'"}],
         "steps": [
          {"id": "p1", "type": "page", "steps": [
            {"id": "consent", "type": "single-choice", "required": true, "options": {"choices": ["yes", "no"]}},
            {"id": "age", "type": "number",
             "validators": [{"type": "numeric", "minValue": 13, "text": "You must be 13 or older."}]},
            {"id": "pets", "type": "multiple-choice", "visibleIf": "{age} > 30", "options": {"choices": ["cat", "dog"]}},
            {"id": "plan", "type": "text", "readOnly": true, "defaultValue": "basic"},
            {"id": "total", "type": "expression", "options": {"expression": "{age} + 1"}}
          ]},
          {"id": "p2", "type": "page", "steps": [{"id": "name", "type": "text", "required": true}]}
         ]}
        """

    static let clean: [String: JSONValue] = [
        "consent": "yes", "age": 40, "pets": ["cat"], "plan": "basic", "total": 41, "double": 80, "name": "Ann",
    ]

    static func audit() throws -> ResponseAudit {
        ResponseAudit(survey: try SurveyLoader(registry: .builtins()).load(text: text), today: "2026-12-07")
    }

    /// The codes and paths of `data`'s problems.
    static func problems(_ data: [String: JSONValue]) throws -> [String] {
        try audit().audit(data).problems.map { "\($0.code.rawValue) \($0.path)" }
    }

    /// `clean` with `changes` (a `null` removes the key).
    static func changed(_ changes: [String: JSONValue]) -> [String: JSONValue] {
        var data = clean
        for (key, value) in changes {
            if value.isNull { data.removeValue(forKey: key) } else { data[key] = value }
        }
        return data
    }

    @Test func aResponseSomeRespondentCouldGiveIsClean() throws {
        let report = try Self.audit().audit(Self.clean)
        #expect(report.isClean, "\(report.problems)")
        #expect(report.isCompleted)
        #expect(report.path == ["p1", "p2"])
        #expect(report.cleaned == Self.clean)
    }

    @Test func hiddenAnswer() throws {
        // pets is shown only above 30.
        #expect(try Self.problems(Self.changed(["age": 20, "double": 40, "total": 21])) == ["hidden-answer $.pets"])
        #expect(try Self.problems(Self.changed(["age": 31, "double": 62, "total": 32])).isEmpty)
    }

    @Test func requiredMissing() throws {
        #expect(try Self.problems(Self.changed(["name": .null])) == ["required-missing $.name"])
        #expect(try Self.problems(Self.changed(["pets": .null])).isEmpty)  // pets is not required
    }

    @Test func invalidValueWithTheKindsAndTheValidatorsMessage() throws {
        let choice = try Self.audit().audit(Self.changed(["consent": "maybe"])).problems
        #expect(choice.map(\.code) == [.invalidValue] && choice.first?.path.description == "$.consent")
        let validator = try Self.audit().audit(Self.changed(["age": 10, "double": 20, "total": 11, "pets": .null]))
        #expect(validator.problems.map(\.code) == [.invalidValue])
        #expect(validator.problems.first?.message.contains("You must be 13 or older.") == true)
        #expect(try Self.problems(Self.changed(["age": 13, "double": 26, "total": 14, "pets": .null])).isEmpty)
    }

    @Test func readOnlyChanged() throws {
        #expect(try Self.problems(Self.changed(["plan": "premium"])) == ["read-only-changed $.plan"])
        #expect(try Self.problems(Self.changed(["plan": .null])) == ["read-only-changed $.plan"])
        #expect(try Self.problems(Self.changed(["plan": "basic"])).isEmpty)
    }

    @Test func calculatedMismatch() throws {
        #expect(try Self.problems(Self.changed(["double": 99])) == ["calculated-mismatch $.double"])
        #expect(try Self.problems(Self.changed(["total": 5])) == ["calculated-mismatch $.total"])
        #expect(try Self.problems(Self.changed(["double": .null])) == ["calculated-mismatch $.double"])
        #expect(try Self.problems(Self.changed(["age": 50, "double": 100, "total": 51])).isEmpty)
    }

    @Test func unknownName() throws {
        #expect(try Self.problems(Self.changed(["nickname": "x"])) == ["unknown-name $.nickname"])
        #expect(try Self.problems(Self.clean).isEmpty)
    }

    @Test func endedEarlier() throws {
        // consent "no" completes the survey on the first page's Next: name is never shown.
        #expect(try Self.problems(Self.changed(["consent": "no"])) == ["ended-earlier $.name"])
        #expect(try Self.problems(Self.changed(["consent": "no", "name": .null])).isEmpty)
    }

    @Test func ourResultAndTheWebhookPayloadKeepTheAnswersUnderAnswers() throws {
        var answers = Self.clean
        answers["pets"] = nil
        answers["age"] = 20
        answers["double"] = 40
        answers["total"] = 21
        let record: JSONValue = .object(["surveyId": "audit", "path": ["p1", "p2"], "answers": .object(answers)])
        #expect(try Self.audit().audit(response: record).isClean)
        answers["pets"] = ["dog"]
        let tampered: JSONValue = .object(["responseId": "r1", "answers": .object(answers)])
        #expect(
            try Self.audit().audit(response: tampered).problems.map(\.description) == [
                "hidden-answer $.answers.pets (pets): 'pets' is hidden for these answers, so no respondent could answer it"
            ])
        #expect(try Self.audit().audit(response: [1, 2]).problems.map(\.code) == [.notAResponse])
    }

    @Test func theSameResponseGivesTheSameReport() throws {
        let data = Self.changed(["consent": "maybe", "plan": "x", "nickname": 1, "double": 3])
        let first = try Self.audit().audit(data)
        #expect(first == (try Self.audit().audit(data)))
        #expect(first.problems.count == 4)
    }

    @Test func aBatchOnThreadsGivesEachResponseTheReportItGetsAlone() throws {
        let audit = try Self.audit()
        let variants: [[String: JSONValue]] = [
            Self.clean, Self.changed(["consent": "no"]), Self.changed(["age": 20]), Self.changed(["name": .null]),
            Self.changed(["plan": "gold", "nickname": "x"]),
        ]
        let responses = (0..<300).map { JSONValue.object(variants[$0 % variants.count]) }
        let batch = audit.audit(responses: responses, parallelism: 3)
        #expect(batch == responses.map { audit.audit(response: $0) })
        #expect(batch.filter(\.isClean).count == 60)
    }

    // MARK: Example surveys

    /// Every example survey (ours and SurveyJS's, each as `survey` loads it).
    static func examples() throws -> [(name: String, survey: Survey)] {
        let directory = repositoryRoot.appendingPathComponent("Examples")
        var files: [URL] = []
        for sub in ["", "surveyjs"] {
            let folder = sub.isEmpty ? directory : directory.appendingPathComponent(sub)
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            where name.hasSuffix(".json") && !name.hasSuffix(".answers.json") {
                files.append(folder.appendingPathComponent(name))
            }
        }
        let source = SurveySource(loader: SurveyLoader(registry: .builtins()))
        return try files.map { file in
            (file.lastPathComponent, try source.load(String(contentsOf: file, encoding: .utf8), file: file.path))
        }
    }

    /// The completed results of `survey`'s generated paths, with the session each ended in.
    static func completedPaths(of survey: Survey) -> [(script: PathGenerator.Script, session: SurveySession)] {
        var generator = PathGenerator(survey: survey, seed: 1, timeLimit: 5)
        generator.today = "2026-01-01"
        return generator.generate().scripts.compactMap { script in
            var session = SurveySession(survey: survey, seed: 1, today: "2026-01-01", variables: script.variables)
            for action in script.actions {
                switch action {
                case .answer(let stepID, let value): _ = try? session.answer(value, for: stepID)
                case .next: session.next()
                case .back: try? session.back()
                case .dismiss: session.dismiss()
                }
            }
            return session.status == .completed ? (script, session) : nil
        }
    }

    @Test func everyExampleSurveysGeneratedPathsAuditCleanAndTamperedCopiesAreCaught() throws {
        var mutations: [AuditProblem.Code: Int] = [:]
        for (name, survey) in try Self.examples() {
            let paths = Self.completedPaths(of: survey)
            #expect(!paths.isEmpty, "\(name): no generated path completes")
            for (script, session) in paths {
                let audit = ResponseAudit(survey: survey, seed: 1, today: "2026-01-01", variables: script.variables)
                let answers = session.completionResult().answers
                let report = audit.audit(answers)
                #expect(report.isClean, "\(name) \(script.path): \(report.problems)")
                #expect(report.cleaned == answers, "\(name)")
                // Tampered copies, each caught with its code at its place.
                func caught(_ tampered: [String: JSONValue], _ code: AuditProblem.Code, at key: String) {
                    let found = audit.audit(tampered).problems
                    #expect(
                        found.contains { $0.code == code && $0.path == JSONPath.root.appending(key) },
                        "\(name) \(script.path): \(code.rawValue) at \(key) expected, got \(found)")
                    mutations[code, default: 0] += 1
                }
                // A hidden answer added.
                if let hidden = survey.stepIDs.first(where: {
                    answers[$0] == nil && !session.isVisible($0) && survey.question(forStep: $0)?.collectsAnswer == true
                        && survey.isSwitchedOn($0)
                }) {
                    var tampered = answers
                    tampered[hidden] = "tampered"
                    caught(tampered, .hiddenAnswer, at: hidden)
                }
                // A required answer removed.
                if let required = answers.keys.sorted().first(where: {
                    survey.stepDefinition($0)?.isRequired == true && survey.stepDefinition($0)?.isReadOnly == false
                }) {
                    var tampered = answers
                    tampered[required] = nil
                    caught(tampered, .requiredMissing, at: required)
                }
                // A choice replaced by one the question does not offer.
                if let choice = answers.keys.sorted().first(where: {
                    survey.question(forStep: $0)?.typeID == "single-choice" && !survey.hasOtherChoice(step: $0)
                }) {
                    var tampered = answers
                    tampered[choice] = "not-a-choice"
                    caught(tampered, .invalidValue, at: choice)
                }
                // A calculated value changed.
                if let calculated = survey.definition.calculatedValues.first(where: {
                    $0.includeIntoResult && answers[$0.name]?.numberValue != nil
                }) {
                    var tampered = answers
                    tampered[calculated.name] = .number((answers[calculated.name]?.numberValue ?? 0) + 1)
                    caught(tampered, .calculatedMismatch, at: calculated.name)
                }
            }
        }
        // Every kind of tampering was tried on some example.
        for code in [AuditProblem.Code.hiddenAnswer, .requiredMissing, .invalidValue, .calculatedMismatch] {
            #expect(mutations[code, default: 0] > 0, "no example could be tampered with for \(code.rawValue)")
        }
    }

    // MARK: SurveyJS data

    static let surveyJS = """
        {"pages": [
          {"name": "p1", "elements": [
            {"type": "radiogroup", "name": "color", "choices": ["red", "blue"], "showOtherItem": true,
             "isRequired": true},
            {"type": "boolean", "name": "likes", "visibleIf": "{color} = 'red'"}
          ]},
          {"name": "p2", "elements": [{"type": "text", "name": "why", "visibleIf": "{likes} = true"}]}
        ]}
        """

    static func surveyJSAudit() throws -> ResponseAudit {
        let source = SurveySource(loader: SurveyLoader(registry: .builtins()))
        return ResponseAudit(survey: try source.load(surveyJS, file: "colors.json"), today: "2026-12-07")
    }

    @Test func surveyJSDataIsReadInSurveyCoresShape() throws {
        let audit = try Self.surveyJSAudit()
        // survey-core keeps an Other answer as "other" with the text in color-Comment.
        let other = audit.audit(["color": "other", "color-Comment": "green"])
        #expect(other.isClean, "\(other.problems)")
        #expect(audit.audit(["color": "red", "likes": true, "why": "warm"]).isClean)
        #expect(
            audit.audit(["color": "blue", "likes": true]).problems.map { "\($0.code.rawValue) \($0.path)" } == [
                "hidden-answer $.likes"
            ])
        #expect(audit.audit(["likes": false]).problems.map(\.code) == [.requiredMissing, .hiddenAnswer])
    }

    /// The SurveyJS file of a differential case (Tests/Differential/cases), as an audit.
    static func caseAudit(_ name: String) throws -> ResponseAudit {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Differential/cases/\(name)/surveyjs.json")
        let text = try String(contentsOf: file, encoding: .utf8)
        let source = SurveySource(loader: SurveyLoader(registry: .builtins()))
        return ResponseAudit(survey: try source.load(text, file: file.path), today: "2026-12-07")
    }

    static func codes(_ report: AuditReport) -> [String] { report.problems.map { "\($0.code.rawValue) \($0.path)" } }

    /// survey-core's data after q1, answered, was hidden by q2's answer: it still counted until completion
    /// (showing p3), which then dropped it. The audit cannot know q1's value, and reports nothing that
    /// depends on it; what depends only on the data's own answers is still caught.
    @Test func anAnswerTheDataLostOnCompletionIsNotHeldAgainstWhatDependedOnIt() throws {
        let calculated = try Self.caseAudit("hidden-answer-in-calculated-value")
        // q1 = 4 made double 8 and showed p3, then q2 hid q1: its answer left the data on completion.
        let lost = calculated.audit(["q2": "a", "q3": "y"])
        #expect(lost.isClean, "\(lost.problems)")
        #expect(calculated.audit(["q2": "a"]).isClean)
        // q1 visible and answered 3: double is 6, so p3 is hidden for these answers.
        #expect(Self.codes(calculated.audit(["q1": 3, "q3": "y"])) == ["hidden-answer $.q3"])
        // q1 hidden by q2 is not kept by survey-core: a q1 in the data is added.
        #expect(Self.codes(calculated.audit(["q1": 4, "q2": "a", "q3": "y"])) == ["hidden-answer $.q1"])

        let counts = try Self.caseAudit("hidden-answer-still-counts")
        let kept = counts.audit(["q2": "a", "q3": "y", "q4": "z"])
        #expect(kept.isClean, "\(kept.problems)")
        #expect(counts.audit(["q1": "x", "q3": "y", "q4": "z"]).isClean)
        // q1 answered and visible says p3 is hidden: q3 was added.
        #expect(Self.codes(counts.audit(["q1": "w", "q3": "y", "q4": "z"])) == ["hidden-answer $.q3"])
        // Without clearInvisibleValues "onComplete" nothing was lost: the same data is caught.
        let text = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Differential/cases/hidden-answer-still-counts/surveyjs.json"), encoding: .utf8)
        let onHidden = text.replacingOccurrences(
            of: #""pages""#, with: #""clearInvisibleValues": "onHidden", "pages""#)
        let strict = ResponseAudit(
            survey: try SurveySource(loader: SurveyLoader(registry: .builtins())).load(onHidden, file: "x.json"),
            today: "2026-12-07")
        #expect(Self.codes(strict.audit(["q2": "a", "q3": "y", "q4": "z"])) == ["hidden-answer $.q3"])
    }
}

/// An `ended-by-quota` record (docs/targeting.md) audited against the quota that ended it.
@Suite struct QuotaEndedAuditTests {
    static let text = """
        {"formatVersion": 1, "id": "panel", "title": "Panel",
         "quotas": [{"id": "young", "when": "{age} = 'young'", "limit": 1, "message": {"en": "Enough."}}],
         "steps": [
          {"id": "p1", "type": "page", "steps": [
            {"id": "age", "type": "single-choice", "required": true, "options": {"choices": ["young", "old"]}}]},
          {"id": "p2", "type": "page", "steps": [{"id": "apps", "type": "text", "required": true}]}
         ]}
        """

    static func record(_ answers: JSONValue, quota: String? = "young") -> JSONValue {
        var members: [String: JSONValue] = [
            "responseId": "r1", "surveyId": "panel", "status": "ended-by-quota", "answers": answers, "path": ["p1"],
        ]
        if let quota { members["quotasReached"] = [["quotaId": .string(quota), "action": "end"]] }
        return .object(members)
    }

    @Test func anEndedByQuotaRecordMustMatchTheQuotaThatEndedIt() throws {
        let audit = ResponseAudit(
            survey: try SurveyLoader(registry: .builtins()).load(text: Self.text), today: "2026-12-07")
        func codes(_ record: JSONValue) -> [String] {
            audit.audit(response: record).problems.map { "\($0.code.rawValue) \($0.path)" }
        }
        // Ended at the first Next: the answers stop there, and that is no missing required answer.
        #expect(codes(Self.record(["age": "young"])) == [])
        // The quota filled while the respondent finished: a whole completion that matches it.
        #expect(codes(Self.record(["age": "young", "apps": "none"])) == [])
        // Not in the quota: the status is not what these answers give.
        #expect(codes(Self.record(["age": "old"])) == ["required-missing $.answers.apps", "quota-mismatch $.status"])
        #expect(codes(Self.record(["age": "young"], quota: nil)).contains("quota-mismatch $.status"))
        // The same answers as a completion are missing the second page.
        var completed = Self.record(["age": "young"])
        if case .object(var members) = completed {
            members["status"] = "completed"
            completed = .object(members)
        }
        #expect(codes(completed) == ["required-missing $.answers.apps"])
    }
}

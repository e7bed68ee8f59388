import Foundation
import SurveyBuiltins
import SurveyCore
import SurveyRendering

/// A survey run with scripted answers, for tests in XCTest or Swift Testing.
///
/// ```swift
/// import SurveyTestKit
/// import Testing
///
/// @Test func happyCustomersSkipTheContactForm() throws {
///     let run = try SurveyRun(file: "Examples/onboarding.json", answers: ["source": "google", "rating": 5])
///     try run.expectPath(["welcome", "source", "goals", "rating", "thanks"])
///     #expect(run.answers["rating"] == 5)
///     #expect(run.progressTrail.map(\.current) == [0, 1, 2, 3, 3])
/// }
/// ```
///
/// The run uses the headless front end, so it behaves exactly like `survey test`.
public struct SurveyRun: Sendable {
    /// The underlying headless run (outcome, failure, transcript, final state).
    public let run: HeadlessRun

    /// Runs the survey in `text` with `answers` (step id → answer).
    /// - Parameters:
    ///   - text: the survey's JSON.
    ///   - answers: each step's answer, by step id.
    ///   - registry: the question types (default: the built-ins).
    ///   - seed: the shuffle seed.
    ///   - locale: the locale of texts and messages.
    ///   - today: the date for `today()`/`age()`.
    /// - Throws: ``SurveyRunError`` when the survey does not load or the script does not fit it.
    public init(
        text: String, answers: [String: JSONValue], registry: QuestionTypeRegistry = .builtins(), seed: UInt64 = 0,
        locale: String? = nil, today: String? = nil
    ) throws(SurveyRunError) {
        try self.init(
            text: text, script: .answers(answers), registry: registry, seed: seed, locale: locale, today: today)
    }

    /// Runs the survey in `text` with an ordered list of actions (answers, next, back…).
    public init(
        text: String, actions: [RendererAction], registry: QuestionTypeRegistry = .builtins(), seed: UInt64 = 0,
        locale: String? = nil, today: String? = nil
    ) throws(SurveyRunError) {
        try self.init(
            text: text, script: .actions(actions), registry: registry, seed: seed, locale: locale, today: today)
    }

    /// Runs the survey in the file at `file` with `answers`.
    public init(
        file: String, answers: [String: JSONValue], registry: QuestionTypeRegistry = .builtins(), seed: UInt64 = 0,
        locale: String? = nil, today: String? = nil
    ) throws(SurveyRunError) {
        try self.init(
            text: try Self.read(file), script: .answers(answers), source: file, registry: registry, seed: seed,
            locale: locale, today: today)
    }

    /// Runs the survey in the file at `file` with an ordered list of actions.
    public init(
        file: String, actions: [RendererAction], registry: QuestionTypeRegistry = .builtins(), seed: UInt64 = 0,
        locale: String? = nil, today: String? = nil
    ) throws(SurveyRunError) {
        try self.init(
            text: try Self.read(file), script: .actions(actions), source: file, registry: registry, seed: seed,
            locale: locale, today: today)
    }

    /// Runs the survey in `text` with any script.
    public init(
        text: String, script: AnswerScript, source: String? = nil, registry: QuestionTypeRegistry = .builtins(),
        seed: UInt64 = 0, locale: String? = nil, today: String? = nil
    ) throws(SurveyRunError) {
        let survey: Survey
        do {
            survey = try SurveyLoader(registry: registry).load(text: text, source: source)
        } catch {
            throw SurveyRunError(message: "the survey does not load:\n" + error.description)
        }
        run = HeadlessRun(survey: survey, script: script, seed: seed, locale: locale, today: today)
        if let failure = run.failure {
            throw SurveyRunError(
                message: failure.message + "\n  path so far: " + run.path.joined(separator: " → "), run: run)
        }
    }

    static func read(_ file: String) throws(SurveyRunError) -> String {
        guard let data = FileManager.default.contents(atPath: file), let text = String(data: data, encoding: .utf8)
        else {
            throw SurveyRunError(message: "cannot read '\(file)'")
        }
        return text
    }

    /// Whether the survey was completed.
    public var isCompleted: Bool { run.isCompleted }
    /// The units shown, in order.
    public var path: [String] { run.path }
    /// The answers on the completed path.
    public var answers: [String: JSONValue] { run.answers }
    /// "Question k of n" as shown on each unit.
    public var progressTrail: [ProgressMark] { run.progressTrail }
    /// The transcript as JSON-event lines.
    public var events: [String] { run.eventLines }

    /// Throws a readable diff unless the path is exactly `expected`.
    public func expectPath(_ expected: [String]) throws(SurveyRunError) {
        if let difference = HeadlessRun.pathDifference(expected: expected, actual: path) {
            throw SurveyRunError(message: "the path differs:\n" + difference, run: run)
        }
    }

    /// Throws a readable, per-step diff unless the answers are exactly `expected`.
    public func expectAnswers(_ expected: [String: JSONValue]) throws(SurveyRunError) {
        if let difference = HeadlessRun.answersDifference(expected: expected, actual: answers) {
            throw SurveyRunError(message: "the answers differ:\n" + difference, run: run)
        }
    }

    /// Throws unless the progress shown on each unit is `expected` as `(current, total)` pairs.
    public func expectProgress(_ expected: [(Int, Int)]) throws(SurveyRunError) {
        let actual = progressTrail.map { ($0.current, $0.total) }
        guard !actual.elementsEqual(expected, by: { $0 == $1 }) else { return }
        let show = { (pairs: [(Int, Int)]) in pairs.map { "\($0.0)/\($0.1)" }.joined(separator: ", ") }
        throw SurveyRunError(
            message:
                "the progress differs:\n  expected: \(show(expected))\n  actual:   \(show(actual)) (\(progressTrail.map(\.unitID).joined(separator: ", ")))",
            run: run)
    }
}

/// Why a ``SurveyRun`` or one of its expectations failed, with a message that says what differed.
public struct SurveyRunError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public var message: String
    /// The run, when it got that far.
    public var run: HeadlessRun?

    /// Creates an error.
    public init(message: String, run: HeadlessRun? = nil) {
        self.message = message
        self.run = run
    }

    public var description: String { message }
}

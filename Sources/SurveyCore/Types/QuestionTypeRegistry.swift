/// The question types a survey may use, keyed by type id.
///
/// A registry is a value: build one, register types, and pass it to the loader. There is no
/// hidden global; `QuestionTypeRegistry.builtins()` (from `SurveyBuiltins`) is a convenience.
///
/// ```swift
/// var registry = QuestionTypeRegistry()
/// try registry.register(ColorType())
/// let survey = try SurveyLoader(registry: registry).load(text: json)
/// ```
public struct QuestionTypeRegistry: Sendable {
    private var entries: [String: AnyQuestionType] = [:]

    /// An empty registry.
    public init() {}

    /// Adds a type.
    /// - Parameters:
    ///   - type: the question type; its ``QuestionType/typeID`` must be new to this registry.
    ///   - origin: who provides it ("built-in", a plugin's path), named in duplicate errors.
    /// - Throws: ``RegistryError/duplicateTypeID(_:existingOrigin:newOrigin:)`` when the id is taken.
    public mutating func register(_ type: some QuestionType, origin: String = "built-in") throws(RegistryError) {
        try register(AnyQuestionType(type, origin: origin))
    }

    /// Adds an already type-erased type.
    public mutating func register(_ type: AnyQuestionType) throws(RegistryError) {
        guard !type.typeID.isEmpty else { throw RegistryError.invalidTypeID(type.typeID, origin: type.origin) }
        if let existing = entries[type.typeID] {
            throw RegistryError.duplicateTypeID(type.typeID, existingOrigin: existing.origin, newOrigin: type.origin)
        }
        entries[type.typeID] = type
    }

    /// The type registered under `typeID`.
    public func type(withID typeID: String) -> AnyQuestionType? {
        entries[typeID]
    }

    /// Every registered type id, sorted.
    public var typeIDs: [String] { entries.keys.sorted() }

    /// Every registered type, sorted by id.
    public var types: [AnyQuestionType] { typeIDs.compactMap { entries[$0] } }
}

/// A registration that cannot be accepted.
public enum RegistryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The id is already registered.
    case duplicateTypeID(String, existingOrigin: String, newOrigin: String)
    /// The id is empty or malformed.
    case invalidTypeID(String, origin: String)
    /// An expression function of that name is already registered.
    case duplicateFunction(String, existingOrigin: String, newOrigin: String)

    public var description: String {
        switch self {
        case .duplicateTypeID(let id, let existing, let new):
            return "question type '\(id)' from \(new) is already registered by \(existing)"
        case .invalidTypeID(let id, let origin):
            return "invalid id '\(id)' from \(origin)"
        case .duplicateFunction(let name, let existing, let new):
            return "expression function '\(name)' from \(new) is already registered by \(existing)"
        }
    }
}

/// A type-erased ``QuestionType``, as stored in a registry.
public struct AnyQuestionType: Sendable {
    /// The stable type id.
    public let typeID: String
    /// A one-line description.
    public let summary: String
    /// Who provides the type ("built-in" or a plugin path).
    public let origin: String
    /// Whether questions of this type take an answer.
    public let collectsAnswer: Bool
    private let makeQuestion: @Sendable (inout OptionsReader) throws(SurveyError) -> ConfiguredQuestion

    /// Wraps `type`.
    public init<T: QuestionType>(_ type: T, origin: String = "built-in") {
        typeID = type.typeID
        summary = type.summary
        self.origin = origin
        collectsAnswer = type.collectsAnswer
        makeQuestion = { (reader: inout OptionsReader) throws(SurveyError) -> ConfiguredQuestion in
            let options = try type.makeOptions(from: &reader)
            return ConfiguredQuestion(box: QuestionBox(type: type, options: options))
        }
    }

    /// Decodes `options` (a question's `options` object) into a ready-to-ask question.
    /// - Parameters:
    ///   - options: the question's `options` object (`null` when it has none).
    ///   - path: where the options are in the survey file, for error messages.
    ///   - stepID: the question's step id, for error messages.
    ///   - registry: the survey's kinds, so that options naming a kind (a repeat's items, a
    ///     matrix-dropdown's columns) may name a plugin's (``OptionsReader/registry``).
    ///   - functions: the survey's expression functions, for expressions inside the options (a repeat
    ///     item's `visibleIf` may call a plugin's function; ``OptionsReader/functions``).
    /// - Throws: ``SurveyError`` naming the JSON path of the bad option.
    public func configure(
        options: JSONValue, path: JSONPath, stepID: String? = nil, registry: QuestionTypeRegistry? = nil,
        functions: ExpressionFunctionRegistry? = nil
    ) throws(SurveyError) -> ConfiguredQuestion {
        var reader = try OptionsReader(options, path: path, stepID: stepID, registry: registry, functions: functions)
        let question = try makeQuestion(&reader)
        try reader.finish()
        return question
    }
}

/// One question's type together with its decoded options: everything needed to ask it,
/// check its answers and summarise them.
public struct ConfiguredQuestion: Sendable {
    let box: AnyQuestionBox

    /// The type id.
    public var typeID: String { box.typeID }
    /// Whether the question takes an answer.
    public var collectsAnswer: Bool { box.collectsAnswer }
    /// Whether equality on its answer keeps the order of a list (``QuestionType/comparesAnswersInOrder``).
    public var comparesAnswersInOrder: Bool { box.comparesAnswersInOrder }

    /// How it is asked in `context`'s locale.
    public func input(in context: PresentationContext) -> InputPrimitive { box.input(in: context) }
    /// Checks and normalises an answer.
    public func normalize(_ answer: JSONValue) throws(AnswerError) -> JSONValue { try box.normalize(answer) }
    /// Checks and normalises an answer of a respondent in `context`'s locale.
    public func normalize(_ answer: JSONValue, in context: PresentationContext) throws(AnswerError) -> JSONValue {
        try box.normalize(answer, in: context)
    }
    /// Checks a change to entry `index` of the list answer `current` (``QuestionType/normalize(entry:at:of:options:in:)``).
    public func normalize(entry: JSONValue, at index: Int, of current: [JSONValue], in context: PresentationContext)
        throws(AnswerError) -> EntryAnswer
    {
        try box.normalize(entry: entry, at: index, of: current, in: context)
    }
    /// Parses a typed line into an answer (not yet normalised).
    public func parse(line: String, in context: PresentationContext) throws(AnswerError) -> JSONValue {
        try box.parse(line: line, in: context)
    }
    /// Summarises many answers, given as a tally (``QuestionType/summarize(_:options:in:)-(AnswerTally,_,_)``).
    public func summarize(_ answers: AnswerTally, in context: PresentationContext) -> AnswerSummary {
        box.summarize(answers, in: context)
    }
    /// Summarises a plain list of answers.
    public func summarize(_ answers: [JSONValue], in context: PresentationContext) -> AnswerSummary {
        box.summarize(AnswerTally(answers), in: context)
    }
    /// Whether `answer` counts as no answer.
    public func isEmpty(_ answer: JSONValue) -> Bool { box.isEmpty(answer) }
    /// Body text and media shown with the step, for content steps.
    public func content(in context: PresentationContext) -> ContentPresentation? { box.content(in: context) }
    /// The expression whose value is always the answer, for computed questions.
    public var computedValue: String? { box.computedValue }
    /// The expressions the type reads (``QuestionType/expressions(for:)``).
    public var expressions: [String: String] { box.expressions }
    /// Whether the engine checks the answer again on Next (``QuestionType/checksAgainOnNext(for:)``).
    public var checksAgainOnNext: Bool { box.checksAgainOnNext }
    /// Whether the type gives it an answer before the respondent does (``QuestionType/hasDefaultAnswer(for:)``).
    public var hasDefaultAnswer: Bool { box.hasDefaultAnswer }
    /// The answer it starts with (``QuestionType/defaultAnswer(for:in:)``).
    public func defaultAnswer(in context: PresentationContext) -> JSONValue? { box.defaultAnswer(in: context) }
    /// The answer the completion result keeps (``QuestionType/completedAnswer(_:options:in:)``).
    public func completedAnswer(_ answer: JSONValue, in context: PresentationContext) -> JSONValue {
        box.completedAnswer(answer, in: context)
    }
    /// How many questions it counts as in progress, when more than one (``QuestionType/progressCount(for:in:)``).
    public func progressCount(in context: PresentationContext) -> Int? { box.progressCount(in: context) }
    /// Whether it may count as more than one question (its ``progressCount(in:)`` was not `nil` when
    /// it was configured): asked once per configured question, not once per step.
    var countsAsSeveral: Bool { box.countsAsSeveral }
}

class AnyQuestionBox: @unchecked Sendable {
    /// Read on every Next for every visible step: computed once, when the question is configured.
    let checksAgainOnNext: Bool
    /// Read for every step when a survey is assembled: computed once, when the question is configured.
    let countsAsSeveral: Bool

    init(checksAgainOnNext: Bool, countsAsSeveral: Bool) {
        self.checksAgainOnNext = checksAgainOnNext
        self.countsAsSeveral = countsAsSeveral
    }

    var typeID: String { "" }
    var collectsAnswer: Bool { true }
    var comparesAnswersInOrder: Bool { false }
    func input(in context: PresentationContext) -> InputPrimitive { .none }
    func normalize(_ answer: JSONValue) throws(AnswerError) -> JSONValue { answer }
    func normalize(_ answer: JSONValue, in context: PresentationContext) throws(AnswerError) -> JSONValue { answer }
    func normalize(entry: JSONValue, at index: Int, of current: [JSONValue], in context: PresentationContext)
        throws(AnswerError) -> EntryAnswer
    {
        .whole(.array(current.replacingEntry(at: index, with: entry)))
    }
    func parse(line: String, in context: PresentationContext) throws(AnswerError) -> JSONValue { .string(line) }
    func summarize(_ answers: AnswerTally, in context: PresentationContext) -> AnswerSummary {
        AnswerSummary(answered: answers.count)
    }
    func isEmpty(_ answer: JSONValue) -> Bool { answer.isEmptyAnswer }
    func content(in context: PresentationContext) -> ContentPresentation? { nil }
    var computedValue: String? { nil }
    var expressions: [String: String] { [:] }
    func progressCount(in context: PresentationContext) -> Int? { nil }
    var hasDefaultAnswer: Bool { false }
    func defaultAnswer(in context: PresentationContext) -> JSONValue? { nil }
    func completedAnswer(_ answer: JSONValue, in context: PresentationContext) -> JSONValue { answer }
}

final class QuestionBox<T: QuestionType>: AnyQuestionBox, @unchecked Sendable {
    let type: T
    let options: T.Options

    init(type: T, options: T.Options) {
        self.type = type
        self.options = options
        super.init(
            checksAgainOnNext: type.checksAgainOnNext(for: options),
            countsAsSeveral: type.progressCount(for: options, in: .english) != nil)
    }

    override var typeID: String { type.typeID }
    override var collectsAnswer: Bool { type.collectsAnswer }
    override var comparesAnswersInOrder: Bool { type.comparesAnswersInOrder }
    override func input(in context: PresentationContext) -> InputPrimitive { type.input(for: options, in: context) }
    override func normalize(_ answer: JSONValue) throws(AnswerError) -> JSONValue {
        try type.normalize(answer, options: options)
    }
    override func normalize(_ answer: JSONValue, in context: PresentationContext) throws(AnswerError) -> JSONValue {
        try type.normalize(answer, options: options, in: context)
    }
    override func normalize(
        entry: JSONValue, at index: Int, of current: [JSONValue], in context: PresentationContext
    ) throws(AnswerError) -> EntryAnswer {
        try type.normalize(entry: entry, at: index, of: current, options: options, in: context)
    }
    override func parse(line: String, in context: PresentationContext) throws(AnswerError) -> JSONValue {
        try type.parse(line: line, options: options, in: context)
    }
    override func summarize(_ answers: AnswerTally, in context: PresentationContext) -> AnswerSummary {
        type.summarize(answers, options: options, in: context)
    }
    override func isEmpty(_ answer: JSONValue) -> Bool { type.isEmpty(answer, options: options) }
    override func content(in context: PresentationContext) -> ContentPresentation? {
        type.content(for: options, in: context)
    }
    override var computedValue: String? { type.computedValue(for: options) }
    override var expressions: [String: String] { type.expressions(for: options) }
    override func progressCount(in context: PresentationContext) -> Int? {
        type.progressCount(for: options, in: context)
    }
    override var hasDefaultAnswer: Bool { type.hasDefaultAnswer(for: options) }
    override func defaultAnswer(in context: PresentationContext) -> JSONValue? {
        type.defaultAnswer(for: options, in: context)
    }
    override func completedAnswer(_ answer: JSONValue, in context: PresentationContext) -> JSONValue {
        type.completedAnswer(answer, options: options, in: context)
    }
}

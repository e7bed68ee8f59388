/// A kind of question: how its options are read, how it is asked, how its answers are checked
/// and summarised.
///
/// Built-in kinds and custom kinds implement exactly this protocol and are registered in a
/// ``QuestionTypeRegistry``; the engine has no special cases for either. Only ``typeID``,
/// ``summary``, ``makeOptions(from:)``, ``input(for:in:)`` and ``normalize(_:options:)`` are
/// required; the rest have defaults derived from the input primitive.
///
/// ```swift
/// struct ColorType: QuestionType {
///     var typeID: String { "color" }
///     var summary: String { "A colour as #RRGGBB" }
///     func makeOptions(from reader: inout OptionsReader) throws(SurveyError) -> Void {}
///     func input(for options: Void, in context: PresentationContext) -> InputPrimitive {
///         .freeText(TextInput(placeholder: "#RRGGBB"))
///     }
///     func normalize(_ answer: JSONValue, options: Void) throws(AnswerError) -> JSONValue {
///         guard let text = answer.stringValue, text.count == 7, text.hasPrefix("#") else {
///             throw AnswerError(code: "invalidColor", message: "Enter a colour like #FF8800.")
///         }
///         return .string(text.uppercased())
///     }
/// }
/// ```
public protocol QuestionType: Sendable {
    /// The decoded, validated options of one question of this type.
    associatedtype Options: Sendable

    /// The stable id used in survey files (`"single-choice"`, `"rating"`).
    var typeID: String { get }

    /// A one-line description for `survey types`.
    var summary: String { get }

    /// Whether questions of this type take an answer; `false` for content steps. Default `true`.
    var collectsAnswer: Bool { get }

    /// Whether the order of a list answer is part of it (a ranking): `{q} = [...]` and `{q} <> [...]`
    /// then compare the elements in order, as survey-core compares a ranking; other lists compare in
    /// any order. Default `false`.
    var comparesAnswersInOrder: Bool { get }

    /// Decodes a question's `options` object; throw errors from the reader so they carry the JSON path.
    /// Members left unread are rejected as unknown after this returns.
    func makeOptions(from reader: inout OptionsReader) throws(SurveyError) -> Options

    /// How a question with these options is asked, with texts resolved for `context`'s locale.
    func input(for options: Options, in context: PresentationContext) -> InputPrimitive

    /// Checks an answer and returns its normal form (trimmed text, canonical values).
    /// - Throws: ``AnswerError`` with a message for the respondent.
    func normalize(_ answer: JSONValue, options: Options) throws(AnswerError) -> JSONValue

    /// Checks an answer for a respondent in `context`'s locale. Sessions call this one; implement it
    /// when the type writes its own messages in the respondent's language (mark such errors
    /// ``AnswerError/isLocalized``). The default calls ``normalize(_:options:)``.
    func normalize(_ answer: JSONValue, options: Options, in context: PresentationContext) throws(AnswerError)
        -> JSONValue

    /// Turns a line typed in a terminal into an answer (before ``normalize(_:options:)``).
    /// The default understands the input primitive: choice numbers or values, `1,3`, numbers, yes/no.
    func parse(line: String, options: Options, in context: PresentationContext) throws(AnswerError) -> JSONValue

    /// Summarises the answers of many responses. The default counts values and, for numbers,
    /// computes mean and median (``InputPrimitive/summarize(_:)-([JSONValue])``).
    func summarize(_ answers: [JSONValue], options: Options, in context: PresentationContext) -> AnswerSummary

    /// Summarises the answers of many responses given as the distinct answers with how many gave
    /// each: what the engine calls (a report streams a million responses through one tally per
    /// question). The default hands ``AnswerTally/answers`` to ``summarize(_:options:in:)-([JSONValue],_,_)``,
    /// so a type needs only one of the two; implement this one when the answers of many responses are
    /// many (it then costs one step per distinct answer), or adopt ``SummarizedByInput`` for the
    /// default summary at that cost.
    func summarize(_ answers: AnswerTally, options: Options, in context: PresentationContext) -> AnswerSummary

    /// Whether `answer` counts as "no answer" for the required check. The default treats `null`,
    /// empty strings, empty arrays and objects whose values are all empty as empty.
    func isEmpty(_ answer: JSONValue, options: Options) -> Bool

    /// Body text and media shown with the step (content steps). The default is `nil`.
    func content(for options: Options, in context: PresentationContext) -> ContentPresentation?

    /// An expression whose value is always the answer (a computed, read-only question such as
    /// SurveyJS's `expression` question): the engine compiles it with the survey's names,
    /// re-evaluates it when what it reads changes, stores the result through ``normalize(_:options:)``,
    /// and never lets the respondent answer. The default is `nil`.
    func computedValue(for options: Options) -> String?

    /// Expressions over the survey's names that the type reads (a repeat's count from an earlier
    /// answer, the answers its inner conditions mention), by a name of the type's choosing. The engine
    /// compiles them when the survey loads (an unknown name is a load error at the step) and evaluates
    /// them whenever it asks the question or checks an answer: their values reach
    /// ``input(for:in:)`` and ``normalize(_:options:in:)`` as ``PresentationContext/expressionValues``.
    /// The default is none.
    func expressions(for options: Options) -> [String: String]

    /// Whether the engine checks the answer again on Next, with ``PresentationContext/isFinalCheck``
    /// set: for kinds whose answer is built up in several steps (a repeat, instance by instance) and
    /// is complete only then, or whose check depends on ``expressions(for:)``. The default is `false`.
    func checksAgainOnNext(for options: Options) -> Bool

    /// Checks a change to one entry of a list answer — a respondent filling in or correcting one
    /// instance of a repeat. `current` is the stored, normalised list; `index` is the entry changed
    /// (from 0; `current.count` appends one); `entry` its new value, `null` removing it (later entries
    /// move up). Return ``EntryAnswer/entry(_:)`` with the entry's normal form when only that entry
    /// changes — the engine then updates the list in place and the change costs one entry, not the
    /// whole list — or ``EntryAnswer/whole(_:)`` with the whole new answer. The default applies the
    /// change to `current` and returns the whole list through ``normalize(_:options:in:)``.
    func normalize(
        entry: JSONValue, at index: Int, of current: [JSONValue], options: Options, in context: PresentationContext
    ) throws(AnswerError) -> EntryAnswer

    /// How many questions a step of this type counts as in progress ("question k of n") when it is
    /// more than one: a repeat counts the instances the respondent will see. `context` carries the
    /// step's answer and its ``expressions(for:)``' values; the engine asks again whenever it reports
    /// progress. `nil` (the default) counts the step as one question and is never asked again; a
    /// type that returns a number for a question when the survey loads is asked every time after.
    func progressCount(for options: Options, in context: PresentationContext) -> Int?

    /// Whether the type gives a question an answer before the respondent answers it
    /// (``defaultAnswer(for:in:)``): a repeat whose items have defaults. The default is `false`.
    func hasDefaultAnswer(for options: Options) -> Bool

    /// The answer a question starts with, from its options and its ``expressions(for:)``' values (in
    /// `context`), already normalised; `nil` for none. Asked when a session starts and whenever a
    /// value those expressions read changes, until the respondent answers the question (like a
    /// step's `defaultValueExpression`). Asked only when ``hasDefaultAnswer(for:)`` is `true`; the
    /// default is `nil`.
    func defaultAnswer(for options: Options, in context: PresentationContext) -> JSONValue?

    /// The answer the completion result keeps, with ``PresentationContext/expressionValues`` as they
    /// are when the survey completes: what the type's own conditions hide then is dropped (SurveyJS
    /// clears a matrix's hidden rows on completion). Asked only for questions with
    /// ``expressions(for:)``, unless the survey keeps hidden answers (`clearInvisibleValues: "none"`);
    /// `null` keeps no answer. The default keeps `answer`.
    func completedAnswer(_ answer: JSONValue, options: Options, in context: PresentationContext) -> JSONValue
}

/// What a change to one entry of a list answer gives (``QuestionType/normalize(entry:at:of:options:in:)``).
public enum EntryAnswer: Sendable, Hashable {
    /// Only the entry changes (or is added at the end), to this normal form; the others stay as they are.
    case entry(JSONValue)
    /// The whole new answer (an entry was removed, or the type checks the list as a whole).
    case whole(JSONValue)
}

extension QuestionType {
    public var collectsAnswer: Bool { true }
    public var comparesAnswersInOrder: Bool { false }

    public func normalize(_ answer: JSONValue, options: Options, in context: PresentationContext) throws(AnswerError)
        -> JSONValue
    {
        try normalize(answer, options: options)
    }

    public func parse(line: String, options: Options, in context: PresentationContext) throws(AnswerError) -> JSONValue
    {
        try input(for: options, in: context).parse(line: line)
    }

    public func summarize(_ answers: [JSONValue], options: Options, in context: PresentationContext) -> AnswerSummary {
        input(for: options, in: context).summarize(AnswerTally(answers))
    }

    public func summarize(_ answers: AnswerTally, options: Options, in context: PresentationContext) -> AnswerSummary {
        summarize(answers.answers, options: options, in: context)
    }

    public func isEmpty(_ answer: JSONValue, options: Options) -> Bool {
        answer.isEmptyAnswer
    }

    public func content(for options: Options, in context: PresentationContext) -> ContentPresentation? {
        nil
    }

    public func computedValue(for options: Options) -> String? { nil }

    public func expressions(for options: Options) -> [String: String] { [:] }

    public func checksAgainOnNext(for options: Options) -> Bool { false }

    public func progressCount(for options: Options, in context: PresentationContext) -> Int? { nil }

    public func hasDefaultAnswer(for options: Options) -> Bool { false }

    public func defaultAnswer(for options: Options, in context: PresentationContext) -> JSONValue? { nil }

    public func completedAnswer(_ answer: JSONValue, options: Options, in context: PresentationContext) -> JSONValue {
        answer
    }

    public func normalize(
        entry: JSONValue, at index: Int, of current: [JSONValue], options: Options, in context: PresentationContext
    ) throws(AnswerError) -> EntryAnswer {
        .whole(try normalize(.array(current.replacingEntry(at: index, with: entry)), options: options, in: context))
    }
}

extension Array where Element == JSONValue {
    /// The list with entry `index` set to `entry` (`index == count` appends; `null` removes it).
    /// `index` must be at most `count`.
    public func replacingEntry(at index: Int, with entry: JSONValue) -> [JSONValue] {
        var list = self
        if entry.isNull {
            if index < list.count { list.remove(at: index) }
        } else if index < list.count {
            list[index] = entry
        } else {
            list.append(entry)
        }
        return list
    }
}

extension String {
    /// Whether the text is empty or only whitespace: an ASCII scan, with Unicode spaces checked only
    /// when a non-ASCII byte is met (`Character.isWhitespace` on every character is slow).
    package var isBlank: Bool {
        // Nearly every answer starts with a visible ASCII character: decided by its first byte.
        guard let first = firstUTF8Byte else { return true }
        if first > 32, first < 128 { return false }
        for byte in utf8 {
            switch byte {
            case 32, 9, 10, 11, 12, 13: continue
            case 0..<128: return false
            default: return allSatisfy(\.isWhitespace)
            }
        }
        return true
    }
}

extension String {
    /// The first UTF-8 byte, `nil` for the empty string. Through the view's iterator, which reads a
    /// small string in place: `utf8.first` goes through the generic `Collection` path, several times
    /// slower, and expressions ask for it on every comparison of texts.
    @inline(__always)
    package var firstUTF8Byte: UInt8? {
        // In place for native strings (small ones too), which is most of the time.
        if let first = utf8.withContiguousStorageIfAvailable({ $0.first }) { return first }
        var iterator = utf8.makeIterator()
        return iterator.next()
    }
}

extension JSONValue {
    /// `null`, an empty or blank string, an empty array, or an object whose values are all empty.
    public var isEmptyAnswer: Bool {
        switch self {
        case .null: return true
        case .string(let text): return text.isBlank
        case .array(let values): return values.isEmpty
        case .object(let members): return members.values.allSatisfy(\.isEmptyAnswer)
        case .bool, .number: return false
        }
    }
}

/// What a question type needs to present itself: the locale and the built-in UI strings.
public struct PresentationContext: Sendable {
    /// The respondent's locale, e.g. "fr" or "pt-BR".
    public var locale: String
    /// The survey's default locale, used when a text has no translation for ``locale``.
    public var defaultLocale: String
    /// Built-in UI strings (Yes, No, Other, …) in ``locale``.
    public var strings: UIStrings
    /// The values of choices not offered right now, because their `visibleIf` (or a carried-forward
    /// choice's condition) does not hold. Sessions set it when asking and checking a question with
    /// conditional choices; a type that needs every choice answered (a ranking) leaves these out.
    public var hiddenChoices: Set<String> = []
    /// The values of the type's ``QuestionType/expressions(for:)``, by their names, as they are now.
    public var expressionValues: [String: JSONValue] = [:]
    /// The question's current answer, when the session asks it (`nil` when checking an answer).
    public var answer: JSONValue?
    /// Whether this check is the one on Next (``QuestionType/checksAgainOnNext(for:)``): the answer
    /// must then be complete.
    public var isFinalCheck = false
    /// Whether every row, column and choice that a condition could show is offered, whatever the
    /// conditions give now: the view of everything a question may ever accept, from which the
    /// analysis (`survey paths`, `survey lint`) builds its answers. Sessions leave it off.
    public var showsEveryPart = false

    public init(locale: String, defaultLocale: String, strings: UIStrings? = nil) {
        self.locale = locale
        self.defaultLocale = defaultLocale
        self.strings = strings ?? UIStrings(locale: locale)
    }

    /// The text for this context's locale.
    public func text(_ text: LocalizedText) -> String {
        text.resolved(locale: locale, defaultLocale: defaultLocale)
    }

    /// The text for this context's locale, or `nil`.
    public func text(_ text: LocalizedText?) -> String? {
        text.map { self.text($0) }
    }

    /// English, for reports and load-time checks.
    public static let english = PresentationContext(locale: "en", defaultLocale: "en")

    /// English with ``showsEveryPart``: every conditional row, column and choice offered.
    public static let everyPart: PresentationContext = {
        var context = PresentationContext.english
        context.showsEveryPart = true
        return context
    }()
}

/// A question type whose summary is its input primitive's (``InputPrimitive/summarize(_:)-(AnswerTally)``),
/// computed straight from a tally: adopt it instead of writing either `summarize`.
public protocol SummarizedByInput: QuestionType {}

extension SummarizedByInput {
    public func summarize(_ answers: AnswerTally, options: Options, in context: PresentationContext) -> AnswerSummary {
        input(for: options, in: context).summarize(answers)
    }
}

/// A question type that implements the tally form of `summarize` only: its list form tallies the
/// list and calls it.
public protocol SummarizesTallies: QuestionType {}

extension SummarizesTallies {
    public func summarize(_ answers: [JSONValue], options: Options, in context: PresentationContext) -> AnswerSummary {
        summarize(AnswerTally(answers), options: options, in: context)
    }
}

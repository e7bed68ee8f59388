import SurveyCore

/// The answers one question can have, as a short list of representatives.
///
/// Where the domain is small and finite (a yes/no question, a 1–5 rating, a list of choices) the
/// representatives are every answer. Elsewhere they are one answer per class the survey's
/// expressions can tell apart: for a number, each literal it is compared with and one value in each
/// gap between them; for free text, each literal it is compared with and one text equal to none of
/// them. ``covers(_:)`` says whether, for a given use in an expression, the representatives stand
/// for every answer; where they do not, they are only samples and conclusions drawn from them are
/// "not decided". Every representative has been through the question type's own `normalize`, so it
/// is an answer a respondent can really give. Index 0 is always `null`, "no answer".
package struct AnswerDomain: Sendable {
    /// The shape of the answers.
    package enum Kind: Sendable, Hashable {
        /// No answer (content steps).
        case none
        case singleChoice
        case multipleChoice
        /// Every choice, in an order.
        case ranking
        case number
        case boolean
        case text
        case date
        /// An object of fields (forms, matrices).
        case composite
        /// A file reference object.
        case file
        /// A question type the analysis does not know: representatives are samples only.
        case opaque
    }

    package var kind: Kind
    /// The representatives; `values[0]` is `null`.
    package var values: [JSONValue]
    /// Whether `values` is every answer there is (then any use is covered).
    package var isEnumerated: Bool
    /// For choice kinds: the values of the authored choices (without Other), in order.
    package var choiceValues: [String] = []
    /// For choice kinds: whether the respondent may type their own Other answer.
    package var hasOther = false
    /// Text and dates: whether a representative equal to none of the compared literals exists.
    package var hasFreshValue = true
    /// Dates: whether every ordering comparison is with a real date, so dates between them are represented.
    package var coversOrdering = true
    /// Multiple choice: whether every number of unmentioned choices is represented.
    package var coversCounts = true
    /// Whether the representatives had to be cut short (then they are samples).
    package var isTruncated = false
    /// Composite: the fields, and for fields that expressions read, their own domains.
    package var fieldNames: [String] = []
    package var fieldDomains: [String: AnswerDomain] = [:]

    /// Whether the representatives stand for every answer for this use of the value.
    package func covers(_ usage: ValueUsage) -> Bool {
        if isEnumerated { return true }
        if isTruncated { return false }
        switch kind {
        case .none, .boolean:
            return true
        case .opaque:
            return false
        case .number:
            switch usage {
            case .comparison, .emptiness, .count, .member: return true
            case .length, .opaque: return false
            }
        case .text, .date:
            switch usage {
            case .comparison(let op, let literal):
                let elements = literal.arrayValue ?? [literal]
                guard elements.allSatisfy({ $0.stringValue != nil }), hasFreshValue else { return false }
                if op.isEqualityLike { return true }
                return kind == .date && op.isOrdering && coversOrdering
            case .emptiness, .count, .member: return true
            case .length: return kind == .date
            case .opaque: return false
            }
        case .singleChoice:
            switch usage {
            case .comparison(let op, let literal):
                let elements = literal.arrayValue ?? [literal]
                guard op.isEqualityLike else { return false }
                return !hasOther || elements.allSatisfy { $0.stringValue != nil }
            case .emptiness, .count, .member: return true
            case .length, .opaque: return false
            }
        case .multipleChoice, .ranking:
            switch usage {
            case .comparison(let op, let literal):
                let elements = literal.arrayValue ?? [literal]
                if op.isOrdering { return true }
                return !hasOther || elements.allSatisfy { $0.stringValue != nil }
            case .emptiness: return true
            case .count, .length: return kind == .ranking || coversCounts
            case .member, .opaque: return false
            }
        case .composite:
            switch usage {
            case .member(let field, let inner):
                guard let domain = fieldDomains[field] else { return !fieldNames.contains(field) }
                return domain.covers(inner)
            case .emptiness: return true
            case .comparison(let op, _): return !op.isOrdering && op != .contains && op != .notContains
            case .count, .length, .opaque: return false
            }
        case .file:
            switch usage {
            case .emptiness: return true
            case .comparison(let op, _): return op != .contains && op != .notContains
            default: return false
            }
        }
    }

    /// The number of representatives, "no answer" included.
    package var count: Int { values.count }

    /// Every representative.
    package var all: RepresentativeSet { .all(values.count) }

    /// The representatives that are answers (everything but "no answer").
    package var answers: RepresentativeSet {
        var set = all
        set.remove(0)
        return set
    }

    /// The index of `value` among the representatives.
    package func index(of value: JSONValue) -> Int? {
        values.firstIndex(of: value)
    }
}

extension AnswerDomain {
    /// The type ids whose answers the analysis knows exactly (the built-in types).
    package static let knownTypeIDs: Set<String> = [
        "text", "single-choice", "multiple-choice", "boolean", "rating", "scale", "nps", "number", "date", "matrix",
        "ranking", "contact-form", "feedback-form", "discovery-source", "voice", "content", "dropdown", "tagbox",
        "image-choice", "slider",
    ]

    /// Stands for an answer the analysis could not construct.
    package static let unknownAnswer = "\u{FFFC}an answer"

    /// The domain of `step`, with representatives for the literals that `usages` compare it with.
    /// - Parameter accepts: whether the step's validators let a respondent move on with an answer
    ///   (see `Survey.validatorsAccept`); answers they refuse are left out, and their bounds are tried.
    package static func make(
        for step: Survey.AnalysisStep, usages: [ValueUsage], accepts: @escaping (JSONValue) -> Bool = { _ in true }
    ) -> AnswerDomain {
        guard step.collectsAnswer else { return AnswerDomain(kind: .none, values: [.null], isEnumerated: true) }
        let question = step.question
        var builder = DomainBuilder(
            normalize: { candidate in
                guard let value = try? question.normalize(candidate) else { return nil }
                return accepts(value) ? value : nil
            }, isEmpty: { question.isEmpty($0) })
        // Every conditional row and column: an answer may fill any that some respondent is shown.
        let input = question.input(in: .everyPart)
        let hints = ValidatorHints(step.definition.validators, input: input)
        builder.extraLiterals = hints.literals
        var domain = builder.domain(for: input, usages: usages)
        if !hints.candidates.isEmpty { domain = builder.finish(domain, hints.candidates) }
        if !knownTypeIDs.contains(question.typeID) {
            domain.kind = .opaque
            domain.isEnumerated = false
        }
        if domain.values.count == 1, !domain.isEnumerated {
            // The type refused every candidate (a text `pattern`, a plugin's own format): there may still
            // be answers, so "some answer" is represented (and nothing is concluded from its value).
            domain.values.append(.string(Self.unknownAnswer))
            domain.isTruncated = true
        }
        return domain
    }
}

import SurveyCore

/// Answers worth trying for a question because of its `validators`: the bounds of a `numeric`
/// validator (which split the answers as a literal in a condition does), texts exactly as long as a
/// `text` validator allows, an address for an `email` one, a text a `regex` one matches
/// (``RegexSample``), as few choices as an `answercount` one asks for.
///
/// The analysis leaves out answers that fail a question's validators by themselves (see
/// `Survey.validatorsAccept`); these hints make sure some that pass are among the ones it tries.
struct ValidatorHints {
    /// Numbers the answers are compared with.
    var literals: [JSONValue] = []
    /// Answers to try besides the usual representatives.
    var candidates: [JSONValue] = []

    init(_ validators: [ValidatorDefinition], input: InputPrimitive) {
        for validator in validators {
            switch validator.kind {
            case .numeric(let minimum, let maximum):
                let bounds = [minimum, maximum].compactMap { $0 }
                literals += bounds.map(JSONValue.number)
                if case .freeText = input {
                    candidates += bounds.map { .string(JSONValue.format(number: $0)) }
                    if bounds.isEmpty { candidates.append("42") }
                } else {
                    candidates += bounds.map(JSONValue.number)
                }
            case .text(let minimum, let maximum, _):
                for length in [minimum, maximum, minimum.map { $0 + 1 }].compactMap({ $0 }) where length > 0 {
                    if let maximum, length > maximum { continue }
                    candidates.append(.string(String(repeating: "x", count: length)))
                }
            case .email:
                candidates.append("someone@example.com")
            case .regex(let pattern, let isCaseInsensitive):
                if let text = RegexSample.text(matching: pattern, caseInsensitive: isCaseInsensitive) {
                    candidates.append(.string(text))
                }
            case .answerCount(let minimum, let maximum):
                // The fewest choices the validator accepts (and the most, when that differs).
                guard case .multipleChoice(let list) = input else { break }
                let plain = list.choices.filter { !$0.isOther && !$0.isExclusive }.map { JSONValue.string($0.value) }
                for count in Set([max(minimum ?? 1, 1), maximum ?? 0]).sorted() where count > 0 && count <= plain.count
                {
                    candidates.append(.array(Array(plain.prefix(count))))
                }
            case .expression:
                break
            }
        }
    }
}

import Foundation

extension InputPrimitive {
    /// Parses a line typed in a terminal into an answer shaped for this primitive.
    ///
    /// - Choices: a 1-based number, a choice value or a label (case-insensitive); several as `1,3`.
    ///   Ranking: all numbers in order, `3,1,2`.
    /// - Numbers: decimal notation. Booleans: y/yes/n/no/true/false/1/0 and the labels.
    /// - Free text and dates: the line as typed. File references: a path.
    /// - Composite: a JSON object (front ends normally ask field by field).
    public func parse(line: String) throws(AnswerError) -> JSONValue {
        let text = line.trimmingCharacters(in: .whitespaces)
        switch self {
        case .none:
            return .null
        case .freeText:
            return .string(line)
        case .date:
            return .string(text)
        case .number:
            guard let number = JSONValue.decimalNumber(text), number.isFinite else {
                throw AnswerError(code: "notANumber", message: "Enter a number.")
            }
            return .number(number)
        case .boolean(let input):
            switch text.lowercased() {
            case "y", "yes", "true", "t", "1", "+", input.trueLabel.lowercased(): return input.storedValue(true)
            case "n", "no", "false", "f", "0", "-", input.falseLabel.lowercased(): return input.storedValue(false)
            default: throw AnswerError(code: "notABoolean", message: "Answer yes or no.")
            }
        case .singleChoice(let input):
            return .string(try Self.choiceValue(text, in: input.choices, allowsCustom: input.allowsCustomChoices))
        case .multipleChoice(let input):
            if text.isEmpty { return .array([]) }
            var values: [JSONValue] = []
            for part in text.split(separator: ",") {
                values.append(
                    .string(
                        try Self.choiceValue(
                            part.trimmingCharacters(in: .whitespaces), in: input.choices,
                            allowsCustom: input.allowsCustomChoices)))
            }
            return .array(values)
        case .composite, .repeating:
            do {
                return try JSONParser.parse(text)
            } catch {
                throw AnswerError(code: "wrongShape", message: "Expected a JSON object with the form's fields.")
            }
        case .fileReference:
            return .object(["file": .string(text)])
        }
    }

    static func choiceValue(_ text: String, in choices: [Choice], allowsCustom: Bool = false) throws(AnswerError)
        -> String
    {
        if let number = Int(text), number >= 1, number <= choices.count {
            return choices[number - 1].value
        }
        let lowered = text.lowercased()
        if let match = choices.first(where: { $0.value.lowercased() == lowered || $0.label.lowercased() == lowered }) {
            return match.value
        }
        // Unknown text: kept as typed, so a type with an "Other" choice can accept it as the other text.
        if allowsCustom || choices.contains(where: \.isOther) { return text }
        throw AnswerError(
            code: "notAChoice", message: "'\(text)' is not one of the choices.", arguments: ["value": text])
    }

    /// Summarises answers generically: counts per choice or value; mean, median, minimum and
    /// maximum for numbers; `answered` only for free text and composites.
    public func summarize(_ answers: [JSONValue]) -> AnswerSummary {
        summarize(AnswerTally(answers))
    }

    /// ``summarize(_:)-([JSONValue])`` over a tally of the answers.
    public func summarize(_ tally: AnswerTally) -> AnswerSummary {
        let total = tally.answered
        func percent(_ count: Int) -> Double { total == 0 ? 0 : Double(count) * 100 / Double(total) }
        switch self {
        case .singleChoice(let input), .multipleChoice(let input):
            let known = Set(input.choices.map(\.value))
            let counts = tally.counts { answer in
                (answer.arrayValue ?? [answer]).map { value in
                    let key = value.stringValue ?? value.displayText
                    return known.contains(key) ? key : Optional<String>.none
                }
            }
            let otherCount = counts[nil] ?? 0
            var buckets = input.choices.filter { !$0.isOther }.map {
                AnswerSummary.Bucket(
                    value: $0.value, label: $0.label, count: counts[$0.value] ?? 0,
                    percentage: percent(counts[$0.value] ?? 0))
            }
            if let other = input.choices.first(where: \.isOther) {
                let count = otherCount + (counts[other.value] ?? 0)
                buckets.append(.init(value: other.value, label: other.label, count: count, percentage: percent(count)))
            }
            return AnswerSummary(answered: total, buckets: buckets)
        case .boolean(let input):
            let counts = tally.counts { answer in input.flag(of: answer).map { [$0] } ?? [] }
            let yes = counts[true] ?? 0
            let no = counts[false] ?? 0
            return AnswerSummary(
                answered: total,
                buckets: [
                    .init(value: "true", label: input.trueLabel, count: yes, percentage: percent(yes)),
                    .init(value: "false", label: input.falseLabel, count: no, percentage: percent(no)),
                ],
                mean: total == 0 ? nil : Double(yes) / Double(total))
        case .number:
            let numbers = tally.numbers()
            let buckets = numbers.counts.keys.sorted().map { key in
                AnswerSummary.Bucket(
                    value: JSONValue.format(number: key), label: JSONValue.format(number: key),
                    count: numbers.counts[key] ?? 0, percentage: percent(numbers.counts[key] ?? 0))
            }
            return AnswerSummary(
                answered: total, buckets: buckets, mean: numbers.mean, median: numbers.median,
                minimum: numbers.minimum, maximum: numbers.maximum)
        case .date:
            let counts = tally.counts { [$0.displayText] }
            return AnswerSummary(
                answered: total,
                buckets: counts.keys.sorted().map {
                    .init(value: $0, label: $0, count: counts[$0] ?? 0, percentage: percent(counts[$0] ?? 0))
                })
        case .none, .freeText, .composite, .fileReference, .repeating:
            return AnswerSummary(answered: total)
        }
    }

    /// The arithmetic mean, or `nil` for no values.
    public static func mean(_ values: [Double]) -> Double? {
        values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
    }

    /// The median of sorted values, or `nil` for no values.
    public static func median(_ sorted: [Double]) -> Double? {
        guard !sorted.isEmpty else { return nil }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

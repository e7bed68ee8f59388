import Foundation

/// A step's validator, compiled: its expression resolved against the survey, its pattern built.
///
/// Validators run only on Next (``SurveySession/next()``), for the visible questions of the unit
/// being left, so an answer elsewhere never re-evaluates one and expression validators need no
/// entry in the dependency graph.
struct CompiledValidator: Sendable {
    enum Rule: Sendable {
        case expression(Expression)
        case email
        case regex(NSRegularExpression, source: String)
        case numeric(minimum: Double?, maximum: Double?)
        case text(minimumLength: Int?, maximumLength: Int?, allowsDigits: Bool)
        case answerCount(minimum: Int?, maximum: Int?)
    }

    let rule: Rule
    /// The kind's name in the format (`numeric`), reported with each error.
    let typeName: String
    /// The author's message, or `nil` for the built-in one.
    let text: LocalizedText?
    /// `error` blocks Next; `warning` and `info` are notices shown with the question.
    var severity: Severity = .error

    /// SurveyJS's email pattern (survey-core 3.0.4's `EmailValidator`), written for ICU: the whole
    /// answer, a local part of characters other than `<>()[].,;:@"` and spaces (dot-separated) or a
    /// quoted one, `@`, then dot-separated labels (no `=` either) ending in one of at least two characters.
    static let emailPattern = try? NSRegularExpression(
        pattern:
            #"\A(([^<>()\[\]\.,;:\s@\"]+(\.[^<>()\[\]\.,;:\s@\"]+)*)|(\".+\"))@(([^<>()=\[\]\.,;:\s@\"]+\.)+[^<>()=\[\]\.,;:\s@\"]{2,})\z"#,
        options: [.caseInsensitive])

    /// What is wrong with `answer` for a validator that looks at the answer alone; `nil` when it
    /// passes. Expression validators (which read other values) always pass here.
    func problem(with answer: JSONValue) -> AnswerError? {
        switch rule {
        case .expression:
            return nil
        case .email:
            // A number (a text question's `keepNumbers`) is no address, as survey-core finds.
            guard let text = answer.stringValue ?? answer.numberValue.map(JSONValue.format(number:)) else {
                return nil
            }
            let range = NSRange(text.startIndex..., in: text)
            let matches = Self.emailPattern.map { $0.firstMatch(in: text, range: range) != nil } ?? text.contains("@")
            return matches ? nil : AnswerError(code: "invalidEmail", message: "Enter a valid email address.")
        case .regex(let pattern, let source):
            // A number is matched as it is written (`2`, `0.5`), as survey-core matches a number.
            guard let text = answer.stringValue ?? answer.numberValue.map(JSONValue.format(number:)) else {
                return nil
            }
            if pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil { return nil }
            return AnswerError(
                code: "patternMismatch", message: "The answer is not in the expected format.",
                arguments: ["regex": source])
        case .numeric(let minimum, let maximum):
            let number: Double?
            switch answer {
            case .number(let value): number = value
            case .string(let text): number = JSONValue.decimalNumber(text.trimmingWhitespace())
            default: number = nil
            }
            guard let number, number.isFinite else {
                return AnswerError(code: "notANumber", message: "Enter a number.")
            }
            return Self.rangeProblem(
                number, minimum: minimum, maximum: maximum, codes: ("outOfRange", "belowMinimum", "aboveMaximum"),
                messages: (
                    "Enter a value from {min} to {max}.", "Enter a value of at least {min}.",
                    "Enter a value of at most {max}."
                ))
        case .text(let minimum, let maximum, let allowsDigits):
            guard let text = answer.stringValue else { return nil }
            if !allowsDigits, text.unicodeScalars.contains(where: { ("0"..."9").contains($0) }) {
                return AnswerError(code: "digitsNotAllowed", message: "Digits are not allowed.")
            }
            return Self.rangeProblem(
                Double(text.count), minimum: minimum.map(Double.init), maximum: maximum.map(Double.init),
                codes: ("lengthOutOfRange", "tooShort", "tooLong"),
                messages: (
                    "Enter from {min} to {max} characters.", "Enter at least {min} characters.",
                    "Enter at most {max} characters."
                ))
        case .answerCount(let minimum, let maximum):
            guard case .array(let elements) = answer, !elements.isEmpty else { return nil }
            if let minimum, elements.count < minimum {
                return AnswerError(
                    code: "tooFewSelections", message: "Select at least \(minimum).",
                    arguments: ["min": String(minimum)])
            }
            if let maximum, elements.count > maximum {
                return AnswerError(
                    code: "tooManySelections", message: "Select at most \(maximum).",
                    arguments: ["max": String(maximum)])
            }
            return nil
        }
    }

    /// The error for `value` outside `minimum…maximum`: with both bounds one message naming both
    /// (as SurveyJS's "at least … and at most …"), else the one for the bound crossed.
    static func rangeProblem(
        _ value: Double, minimum: Double?, maximum: Double?,
        codes: (both: String, low: String, high: String), messages: (both: String, low: String, high: String)
    ) -> AnswerError? {
        let isLow = minimum.map { value < $0 } ?? false
        let isHigh = maximum.map { value > $0 } ?? false
        guard isLow || isHigh else { return nil }
        var arguments: [String: String] = [:]
        if let minimum { arguments["min"] = JSONValue.format(number: minimum) }
        if let maximum { arguments["max"] = JSONValue.format(number: maximum) }
        let (code, template) =
            minimum != nil && maximum != nil
            ? (codes.both, messages.both) : isLow ? (codes.low, messages.low) : (codes.high, messages.high)
        return AnswerError(code: code, message: UIStrings.fill(template, arguments), arguments: arguments)
    }
}

// MARK: - Running them

extension SurveySession {
    /// Adds the errors of step `index`'s validators for its current answer, as Next reports them:
    /// every failing validator in order, with its own message. An empty answer skips every kind but
    /// `expression`, as in SurveyJS.
    mutating func appendValidatorErrors(ofStep index: Int, to errors: inout [StepError]) {
        guard let validators = survey.validators[index] else { return }
        let blocking = validators.filter { $0.severity == .error }
        for validator in blocking {
            if case .expression = validator.rule { evaluationCount += 1 }
        }
        errors += validatorErrors(ofStep: index, blocking)
    }

    /// The warnings and info notes of step `index`'s validators on its current answer (SurveyJS's
    /// `notificationType` `warning` and `info`): shown with the question once it is answered, never
    /// blocking.
    func validatorNotices(ofStep index: Int) -> [StepError] {
        guard let validators = survey.validators[index], !survey.steps.questions[index].isEmpty(answers[index])
        else { return [] }
        let notices = validators.filter { $0.severity != .error }
        guard !notices.isEmpty else { return [] }
        return validatorErrors(ofStep: index, notices)
    }

    /// The error of required step `id` left unanswered: its `requiredMessage` (localised and piped),
    /// else the built-in message.
    func requiredError(of id: String) -> StepError {
        guard let text = survey.stepDefinition(id)?.requiredMessage else {
            return StepError(stepID: id, error: .required, message: context.strings.message(for: .required))
        }
        let message = pipe(context.text(text))
        var error = AnswerError.required
        error.message = message
        return StepError(stepID: id, error: error, message: message)
    }

    func validatorErrors(ofStep index: Int, _ validators: [CompiledValidator]) -> [StepError] {
        let step = survey.steps[index]
        let answer = answers[index]
        let isEmpty = step.question.isEmpty(answer)
        var errors: [StepError] = []
        for validator in validators {
            var problem: AnswerError?
            if case .expression(let expression) = validator.rule {
                if !expression.isTrue(values, context: functionContext) {
                    problem = AnswerError(
                        code: "expressionFailed", message: "This answer must meet the condition \(expression.source).",
                        arguments: ["expression": expression.source])
                }
            } else if !isEmpty {
                problem = validator.problem(with: answer)
            }
            guard var problem else { continue }
            let message: String
            if let text = validator.text {
                message = pipe(context.text(text))
                problem.message = message
                problem.isLocalized = true
            } else if case .expression = validator.rule {
                // The expression's own braces would read as unfilled placeholders to `message(for:)`.
                message = context.strings.format(.errorExpressionFailed, problem.arguments)
            } else {
                message = context.strings.message(for: problem)
            }
            var error = StepError(stepID: step.id, error: problem, message: message, validator: validator.typeName)
            error.severity = validator.severity
            errors.append(error)
        }
        return errors
    }

    /// The errors the validators of `stepID` find in its current answer now, as Next would report
    /// them (without the required check); empty when it has none. For path generation and simulation,
    /// which look for answers that let a respondent move on.
    package func validatorErrors(forStep stepID: String) -> [StepError] {
        guard let index = survey.stepIndexByID[stepID], let validators = survey.validators[index] else { return [] }
        return validatorErrors(ofStep: index, validators.filter { $0.severity == .error })
    }
}

extension Survey {
    /// Whether `answer` passes the validators of step `index` that look at the answer alone (every
    /// kind but `expression`): the answers a respondent can move on with, for the analysis.
    package func validatorsAccept(_ answer: JSONValue, step index: Int) -> Bool {
        guard let validators = validators[index], !steps.questions[index].isEmpty(answer) else { return true }
        return validators.allSatisfy { $0.severity != .error || $0.problem(with: answer) == nil }
    }

    /// Whether step `index` has validators.
    package func hasValidators(step index: Int) -> Bool { validators[index] != nil }

    /// Every expression validator, by step index, in document order, with its position in the
    /// step's `validators` and whether it blocks (`notificationType` `error`).
    package var analysisValidatorExpressions: [(step: Int, expression: Expression, index: Int, isBlocking: Bool)] {
        var result: [(step: Int, expression: Expression, index: Int, isBlocking: Bool)] = []
        for step in validators.keys.sorted() {
            for (index, validator) in (validators[step] ?? []).enumerated() {
                if case .expression(let expression) = validator.rule {
                    result.append((step, expression, index, validator.severity == .error))
                }
            }
        }
        return result
    }
}

// MARK: - Compiling them

extension SurveyCompiler {
    /// Compiles every step's `validators`: expressions against the survey's names (with the same
    /// errors as any expression, at `validators[i].expression`), patterns, and whether each kind fits
    /// the question's answers. Pages and content steps take none.
    mutating func compileValidators(
        _ flatSteps: [FlatStep], questions: [ConfiguredQuestion?], resolve: @escaping (String) -> Int?
    ) -> (validators: [Int: [CompiledValidator]], expressionCount: Int) {
        // Index loops: `enumerated()` copies each element (a step and its members, retained one by
        // one) before the condition reads one field of it, a million times at 1M steps.
        for offset in definition.steps.indices
        where definition.steps[offset].isPage && !definition.steps[offset].validators.isEmpty {
            let position = definition.sourceMap?.units[offset] ?? offset
            errors.append(
                SurveyError(
                    .invalidValue, "pages have no 'validators'; put them on the page's questions",
                    path: JSONPath([.key("steps"), .index(position), .key("validators")]),
                    stepID: definition.steps[offset].id))
        }
        var result: [Int: [CompiledValidator]] = [:]
        var expressionCount = 0
        for index in flatSteps.indices where !flatSteps[index].definition.validators.isEmpty {
            let flat = flatSteps[index]
            let stepID = flat.definition.id
            let listPath = flat.path.appending("validators")
            guard let question = questions[index] else { continue }
            guard question.collectsAnswer else {
                errors.append(
                    SurveyError(
                        .invalidValue,
                        "'\(question.typeID)' steps take no answer, so they cannot have validators", path: listPath,
                        stepID: stepID))
                continue
            }
            let input = question.input(in: .english)
            var compiled: [CompiledValidator] = []
            for (offset, validator) in flat.definition.validators.enumerated() {
                let path = listPath.appending(offset)
                if let mismatch = Self.mismatch(of: validator, with: input) {
                    errors.append(
                        SurveyError(
                            .invalidValue,
                            "a '\(validator.typeName)' validator checks \(mismatch); '\(question.typeID)' questions do not answer with one",
                            path: path.appending("type"), stepID: stepID))
                    continue
                }
                if let text = validator.text {
                    checkPiping(text, path: path.appending("text"), stepID: stepID, resolve: resolve)
                }
                let rule: CompiledValidator.Rule
                switch validator.kind {
                case .expression(let source):
                    guard
                        let expression = compileExpression(
                            source, member: "expression", path: path, stepID: stepID, resolve: resolve)
                    else { continue }
                    expressionCount += 1
                    rule = .expression(expression)
                case .email:
                    rule = .email
                case .regex(let source, let isCaseInsensitive):
                    do {
                        let pattern = try NSRegularExpression(
                            pattern: source, options: isCaseInsensitive ? [.caseInsensitive] : [])
                        rule = .regex(pattern, source: source)
                    } catch {
                        errors.append(
                            SurveyError(
                                .invalidValue, "'regex' is not a valid regular expression: \(source)",
                                path: path.appending("regex"), stepID: stepID))
                        continue
                    }
                case .numeric(let minimum, let maximum):
                    rule = .numeric(minimum: minimum, maximum: maximum)
                case .text(let minimum, let maximum, let allowsDigits):
                    rule = .text(minimumLength: minimum, maximumLength: maximum, allowsDigits: allowsDigits)
                case .answerCount(let minimum, let maximum):
                    rule = .answerCount(minimum: minimum, maximum: maximum)
                }
                compiled.append(
                    CompiledValidator(
                        rule: rule, typeName: validator.typeName, text: validator.text,
                        severity: validator.notificationType))
            }
            if !compiled.isEmpty { result[index] = compiled }
        }
        return (result, expressionCount)
    }

    /// What answers `validator` checks, when the question's answers are not of that shape; `nil` when it fits.
    static func mismatch(of validator: ValidatorDefinition, with input: InputPrimitive) -> String? {
        switch (validator.kind, input) {
        case (.expression, _): return nil
        case (.email, .freeText), (.regex, .freeText), (.regex, .number), (.text, .freeText): return nil
        case (.numeric, .freeText), (.numeric, .number): return nil
        // A single choice's answer is the choice's value or the Other text typed, as survey-core checks it.
        case (.numeric, .singleChoice), (.regex, .singleChoice): return nil
        case (.answerCount, .multipleChoice): return nil
        case (.email, _): return "an email address typed as text"
        case (.regex, _): return "a text or number answer (a free-text or number question)"
        case (.text, _): return "a text answer (a free-text question)"
        case (.numeric, _): return "a number, typed as a number or as text"
        case (.answerCount, _): return "a list of selected choices (a multiple-choice or ranking question)"
        }
    }
}

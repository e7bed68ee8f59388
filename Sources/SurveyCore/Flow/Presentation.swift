/// Everything a front end needs to show the current unit: localised, piped texts, visible
/// questions with their input primitives (choices filtered and shuffled), answers so far,
/// progress and the last validation errors. Renderers receive this one value per step, so
/// adding a field never breaks them.
public struct StepPresentation: Sendable, Hashable {
    /// The unit id: a page id, or the step id of a step outside pages.
    public var unitID: String
    public var isPage: Bool
    /// The page's title (for a single step, the step's title is on its question).
    public var title: String?
    public var description: String?
    /// The visible steps, in presentation order.
    public var questions: [QuestionPresentation]
    public var progress: Progress
    public var canGoBack: Bool
    /// Whether Next will complete the survey unless a branch says otherwise.
    public var isLastStep: Bool
    /// Validation problems from the last answer or Next.
    public var errors: [StepError]
    /// The locale texts were resolved for.
    public var locale: String
    /// The built-in UI strings in ``locale``.
    public var strings: UIStrings
    /// The visible panels of the page, outer before inner, in document order; each question names
    /// its innermost panel in ``QuestionPresentation/panel``.
    public var panels: [PanelPresentation] = []

    /// Creates a presentation (sessions make them; renderer tests may build their own).
    public init(
        unitID: String, isPage: Bool, title: String? = nil, description: String? = nil,
        questions: [QuestionPresentation], progress: Progress, canGoBack: Bool, isLastStep: Bool,
        errors: [StepError] = [], locale: String, strings: UIStrings, panels: [PanelPresentation] = []
    ) {
        self.unitID = unitID
        self.isPage = isPage
        self.title = title
        self.description = description
        self.questions = questions
        self.progress = progress
        self.canGoBack = canGoBack
        self.isLastStep = isLastStep
        self.errors = errors
        self.locale = locale
        self.strings = strings
        self.panels = panels
    }
}

/// The current unit in outline: what a front end that does not draw needs (a scripted or headless
/// renderer), at a small part of the cost of a ``StepPresentation``. Its questions are exactly the
/// presentation's, in the same order.
public struct UnitOutline: Sendable, Hashable {
    /// The unit id: a page id, or the step id of a step outside pages.
    public var unitID: String
    /// The visible steps, in presentation order.
    public var questions: [QuestionOutline]
    public var progress: Progress

    /// Creates an outline.
    public init(unitID: String, questions: [QuestionOutline], progress: Progress) {
        self.unitID = unitID
        self.questions = questions
        self.progress = progress
    }

    /// The outline of a full presentation.
    public init(_ presentation: StepPresentation) {
        self.init(
            unitID: presentation.unitID,
            questions: presentation.questions.map {
                QuestionOutline(id: $0.id, collectsAnswer: $0.collectsAnswer, commentKey: $0.commentArea?.key)
            }, progress: presentation.progress)
    }
}

/// A visible step in a ``UnitOutline``.
public struct QuestionOutline: Sendable, Hashable {
    public var id: String
    /// Whether the step takes an answer (content steps do not).
    public var collectsAnswer: Bool
    /// The answer key of its comment box (`<id>-Comment`, from `showCommentArea`), when it has one.
    public var commentKey: String?

    /// Creates a step outline.
    public init(id: String, collectsAnswer: Bool, commentKey: String? = nil) {
        self.id = id
        self.collectsAnswer = collectsAnswer
        self.commentKey = commentKey
    }
}

/// A visible panel (a titled group of questions inside a page).
public struct PanelPresentation: Sendable, Hashable {
    public var id: String
    /// The panel it is nested in, if any.
    public var parent: String?
    public var title: String?
    public var description: String?
    /// At least one of its questions must be answered (`required`, or a `requiredIf` that holds).
    public var isRequired: Bool
    /// The problem from the last Next (code `panelRequired`), if any.
    public var error: StepError?

    public init(
        id: String, parent: String? = nil, title: String? = nil, description: String? = nil, isRequired: Bool = false,
        error: StepError? = nil
    ) {
        self.id = id
        self.parent = parent
        self.title = title
        self.description = description
        self.isRequired = isRequired
        self.error = error
    }
}

/// One visible step as presented.
public struct QuestionPresentation: Sendable, Hashable {
    public var id: String
    public var typeID: String
    public var title: String
    public var description: String?
    /// Required now (``StepDefinition/isRequired`` or a `requiredIf` that holds).
    public var isRequired: Bool
    /// `false` for content steps.
    public var collectsAnswer: Bool
    /// How it is asked.
    public var input: InputPrimitive
    /// The answer stored so far.
    public var answer: JSONValue?
    /// The validation problem for this step, if any.
    public var error: StepError?
    /// Body text and media, for content steps.
    public var content: ContentPresentation?
    /// Shown but not editable (`readOnly`, or an `enableIf` that does not hold): the answer is shown,
    /// an `answer` for it is refused, and it is never required.
    public var isReadOnly = false
    /// The id of the innermost panel it is in (one of ``StepPresentation/panels``), if any.
    public var panel: String?
    /// Warnings and info notes of its validators on the current answer (``StepError/severity`` is
    /// `warning` or `info`): shown with the question, never blocking.
    public var notices: [StepError] = []
    /// Its comment box (`showCommentArea`), if it has one.
    public var commentArea: CommentArea?
}

/// A question's comment box: a free text beside the answer, answered as `<id>-Comment`.
public struct CommentArea: Sendable, Hashable {
    /// What the box is labelled (`commentText`, or the built-in "Comment"), localised and piped.
    public var label: String
    /// The comment so far.
    public var text: String?
    /// The key to answer it with: `<id>-Comment`.
    public var key: String

    public init(label: String, text: String? = nil, key: String) {
        self.label = label
        self.text = text
        self.key = key
    }
}

extension SurveySession {
    /// The current unit as a front end shows it; `nil` once the session is finished.
    public var currentStep: StepPresentation? {
        guard status == .inProgress, let unitIndex = path.last else { return nil }
        let unit = survey.units[unitIndex]
        var panels: [PanelPresentation] = []
        var panelOfStep: [Int: String] = [:]
        for panelIndex in survey.panelsByUnit[unitIndex] ?? 0..<0 {
            let panel = survey.panels[panelIndex]
            guard panel.steps.contains(where: { derived.stepVisible[$0] }) else { continue }
            // Inner panels come after outer ones, so each step ends with its innermost panel.
            for step in panel.steps { panelOfStep[step] = panel.id }
            panels.append(
                PanelPresentation(
                    id: panel.id, parent: panel.parent.map { survey.panels[$0].id },
                    title: panel.title.map { pipe(context.text($0)) },
                    description: panel.description.map { pipe(context.text($0)) },
                    isRequired: isRequired(panel), error: lastErrors.first { $0.stepID == panel.id }))
        }
        var questions: [QuestionPresentation] = []
        for index in orderedSteps(of: unitIndex) where derived.stepVisible[index] {
            var question = presentation(ofStep: index)
            question.panel = panelOfStep[index]
            questions.append(question)
        }
        let isLast =
            derived.unitTree.firstNonzero(from: unitIndex + 1) == nil
            && !unit.branches.contains { $0.targetUnit != nil }
            && !unit.steps.contains { survey.steps[$0].branches.contains { $0.targetUnit != nil } }
        return StepPresentation(
            unitID: unit.id, isPage: unit.isPage, title: unit.title.map { pipe(context.text($0)) },
            description: unit.description.map { pipe(context.text($0)) }, questions: questions, progress: progress,
            canGoBack: canGoBack, isLastStep: isLast, errors: lastErrors, locale: context.strings.locale,
            strings: context.strings, panels: panels)
    }

    /// The current unit in outline (ids, whether each step takes an answer, comment keys, progress);
    /// `nil` once the session is finished. It builds no texts, inputs or choices, so renderers
    /// that do not draw (scripted and headless runs) pay only for what they read.
    public var currentOutline: UnitOutline? {
        guard status == .inProgress, let unitIndex = path.last else { return nil }
        let unit = survey.units[unitIndex]
        var questions: [QuestionOutline] = []
        questions.reserveCapacity(unit.steps.count)
        for index in orderedSteps(of: unitIndex) where derived.stepVisible[index] {
            let id = survey.steps.ids[index]
            let commentKey = survey.commentSlots.isEmpty || survey.commentSlots[index] == nil ? nil : id + "-Comment"
            questions.append(
                QuestionOutline(
                    id: id, collectsAnswer: survey.stepFlags[index].contains(.collectsAnswer), commentKey: commentKey))
        }
        return UnitOutline(unitID: unit.id, questions: questions, progress: progress)
    }

    /// Whether `panel` is required now (`required`, or a `requiredIf` that holds).
    func isRequired(_ panel: CompiledPanel) -> Bool {
        if panel.isRequired { return true }
        return panel.requiredIf?.isTrue(values, context: functionContext) ?? false
    }

    func presentation(ofStep index: Int) -> QuestionPresentation {
        let step = survey.steps[index]
        var asking = questionContext(for: step)
        asking.answer = answers[index]
        var input = step.question.input(in: asking)
        if var choices = input.choiceInput {
            if !step.choiceConditions.isEmpty {
                choices.choices.removeAll { choice in
                    step.choiceConditions[choice.value].map { !$0.isTrue(values, context: functionContext) } ?? false
                }
            }
            if choices.isShuffled {
                var generator = SeededGenerator(seed: seed, purpose: "choices:" + step.id)
                // "None of the above" and Other stay last, as SurveyJS keeps them.
                let others = choices.choices.filter { $0.isOther || $0.isExclusive }
                var regular = choices.choices.filter { !$0.isOther && !$0.isExclusive }
                regular.shuffle(using: &generator)
                choices.choices = regular + others
            }
            for offset in choices.choices.indices where choices.choices[offset].label.utf8.contains(UInt8(ascii: "{")) {
                choices.choices[offset].label = pipe(choices.choices[offset].label)
            }
            if case .multipleChoice = input { input = .multipleChoice(choices) } else { input = .singleChoice(choices) }
        }
        var isRequired = step.isRequired
        if !isRequired, let requiredIf = step.requiredIf {
            isRequired = requiredIf.isTrue(values, context: functionContext)
        }
        let authored = survey.definition(ofStep: index)
        let title = authored.title.map { pipe(context.text($0)) } ?? step.id
        let readOnly = step.collectsAnswer && isReadOnly(index)
        var presentation = QuestionPresentation(
            id: step.id, typeID: step.question.typeID, title: title,
            description: authored.description.map { pipe(context.text($0)) }, isRequired: isRequired && !readOnly,
            collectsAnswer: step.collectsAnswer, input: input,
            answer: answers[index].isNull ? JSONValue?.none : answers[index],
            error: lastErrors.first { $0.stepID == step.id },
            content: content(ofStep: step))
        presentation.isReadOnly = readOnly
        if !survey.validators.isEmpty, !readOnly { presentation.notices = validatorNotices(ofStep: index) }
        if !survey.commentSlots.isEmpty, let slot = survey.commentSlots[index] {
            let label = survey.stepDefinition(step.id)?.commentText.map { pipe(context.text($0)) }
            presentation.commentArea = CommentArea(
                label: label ?? context.strings[.comment], text: values[slot].stringValue, key: step.id + "-Comment")
        }
        return presentation
    }

    func content(ofStep step: CompiledStep) -> ContentPresentation? {
        guard var content = step.question.content(in: context) else { return nil }
        content.body = content.body.map { pipe($0) }
        return content
    }

    /// Replaces `{name}` in `text` with the respondent's answer (or calculated value) as text.
    public func pipe(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "{")) else { return text }
        var result = ""
        var remainder = Substring(text)
        while let open = remainder.firstIndex(of: "{") {
            result += remainder[..<open]
            let after = remainder.index(after: open)
            guard let close = remainder[after...].firstIndex(of: "}") else {
                result += remainder[open...]
                return result
            }
            let name = String(remainder[after..<close]).trimmingWhitespace()
            result += pipedValue(name)?.displayText ?? String(remainder[open...close])
            remainder = remainder[remainder.index(after: close)...]
        }
        result += remainder
        return result
    }

    func pipedValue(_ name: String) -> JSONValue? {
        // `{$q1.title}`: a property, compiled when the survey loaded.
        if name.hasPrefix("$"), let expression = survey.pipedProperties[name] {
            return expression.evaluate(values, context: functionContext)
        }
        func slot(_ name: String) -> Int? {
            if let index = survey.stepIndexByID[name] { return index }
            return survey.calculatedIndexByName[name].map { survey.steps.count + $0 }
        }
        if let slot = slot(name) {
            guard slot < survey.steps.count, !values[slot].isNull else { return values[slot] }
            let input = survey.steps.questions[slot].input(in: context)
            // A yes/no answer reads as the question's own labels in the respondent's language ("Yes"),
            // as SurveyJS shows it, not "true".
            if case .boolean(let labels) = input, let flag = labels.flag(of: values[slot]) {
                return .string(flag ? labels.trueLabel : labels.falseLabel)
            }
            guard let choices = input.choiceInput else { return values[slot] }
            // A choice answer reads as its label ("Google"), not its stored value ("google").
            let labels = Dictionary(
                choices.choices.map { ($0.value, $0.label) }, uniquingKeysWith: { first, _ in first })
            func label(_ value: JSONValue) -> JSONValue {
                value.choiceKey.flatMap { labels[$0] }.map(JSONValue.string) ?? value
            }
            if case .array(let elements) = values[slot] { return .array(elements.map(label)) }
            return label(values[slot])
        }
        // `{name-Comment}`: the text of an Other answer.
        if name.hasSuffix("-Comment"), let index = survey.stepIndexByID[String(name.dropLast(8))],
            let choices = survey.otherChoices[index]
        {
            return choices.text(values[index])
        }
        // `{q.member}`, and SurveyJS's `{group[0].member}` (an index is a member, as in expressions).
        let dotted = ExpressionParser.indexesAsMembers(name) ?? name
        var parts = dotted.split(separator: ".").map(String.init)
        var keys: [String] = []
        while parts.count > 1 {
            keys.insert(parts.removeLast(), at: 0)
            if let slot = slot(parts.joined(separator: ".")) {
                var value = values[slot]
                for key in keys {
                    if case .array(let elements) = value, let index = Int(key) {
                        value = elements.indices.contains(index) ? elements[index] : .null
                    } else {
                        value = value[key] ?? .null
                    }
                }
                return value
            }
        }
        return nil
    }
}

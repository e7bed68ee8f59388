/// How a question is asked, in terms every front end understands.
///
/// A question type describes itself with one of these renderer-neutral primitives, so a terminal,
/// a JSON-event client or a test harness can ask a type it has never seen. Texts are already
/// localised and piped when a renderer receives them. `presentation` fields are hints
/// ("stars", "thumbs", "happy-sad"): a front end that does not know a hint ignores it.
public enum InputPrimitive: Sendable, Hashable {
    /// Nothing to answer (content steps).
    case none
    /// Free text, one line or several.
    case freeText(TextInput)
    /// Exactly one of a list of choices.
    case singleChoice(ChoiceInput)
    /// Zero or more of a list of choices (or, when ``ChoiceInput/isOrdered``, all of them in order).
    case multipleChoice(ChoiceInput)
    /// A number, optionally in a range with a step.
    case number(NumberInput)
    /// Yes or no.
    case boolean(BooleanInput)
    /// A calendar date, `YYYY-MM-DD`.
    case date(DateInput)
    /// Several named fields answered together; the answer is an object keyed by field name.
    case composite(CompositeInput)
    /// A reference to a file (such as a voice recording); the answer stores the reference, not the bytes.
    case fileReference(FileInput)
    /// A group of fields answered once per instance (a repeat); the answer is an array of objects
    /// keyed by field name, one per instance.
    case repeating(RepeatInput)

    /// The primitive's name as it appears in JSON (`"single-choice"`, …).
    public var kindName: String {
        switch self {
        case .none: return "none"
        case .freeText: return "free-text"
        case .singleChoice: return "single-choice"
        case .multipleChoice: return "multiple-choice"
        case .number: return "number"
        case .boolean: return "boolean"
        case .date: return "date"
        case .composite: return "composite"
        case .fileReference: return "file-reference"
        case .repeating: return "repeat"
        }
    }

    /// The choices, for the two choice primitives.
    public var choiceInput: ChoiceInput? {
        switch self {
        case .singleChoice(let input), .multipleChoice(let input): return input
        default: return nil
        }
    }
}

/// One choice of a choice question.
public struct Choice: Sendable, Hashable {
    /// The stored value (stable; what answers and reports use).
    public var value: String
    /// The label shown to the respondent.
    public var label: String
    /// An optional icon name (for example an SF Symbol or an emoji short name).
    public var iconName: String?
    /// Whether picking this choice asks for free text ("Other, please specify").
    public var isOther: Bool
    /// An expression: the choice is offered only while it holds.
    public var visibleIf: String?
    /// Whether picking this choice excludes every other ("None of the above"): it is answered alone.
    public var isExclusive: Bool
    /// A reference to the choice's picture (an `image-choice` question's): a URL or a file path,
    /// never the bytes.
    public var imageReference: String?
    /// Whether the author gave the value as a JSON number (`2`, as SurveyJS allows): ``value`` is then
    /// its text (`"2"`) and answers store the number.
    public var isNumeric = false

    /// The value as answers store it: a number for a numeric choice, else the string.
    public var answerValue: JSONValue {
        guard isNumeric, let number = Double(value) else { return .string(value) }
        return .number(number)
    }

    public init(
        value: String, label: String, iconName: String? = nil, isOther: Bool = false, visibleIf: String? = nil,
        isExclusive: Bool = false
    ) {
        self.value = value
        self.label = label
        self.iconName = iconName
        self.isOther = isOther
        self.visibleIf = visibleIf
        self.isExclusive = isExclusive
    }
}

/// How choices are offered.
public struct ChoiceInput: Sendable, Hashable {
    /// The choices in authored order.
    public var choices: [Choice]
    /// Fewest selections (multiple choice).
    public var minimumSelections: Int?
    /// Most selections (multiple choice).
    public var maximumSelections: Int?
    /// Whether the engine shuffles the order (seeded, reproducible).
    public var isShuffled: Bool
    /// Whether the answer is an ordering of all choices (ranking).
    public var isOrdered: Bool
    /// A presentation hint ("list", "dropdown", "icons").
    public var presentation: String?
    /// The label of a "Select all" item (multiple choice), or `nil` for none: choosing it selects every
    /// offered choice that is neither ``Choice/isOther`` nor ``Choice/isExclusive``. It is not a choice:
    /// the answer is the list of those values.
    public var selectAllLabel: String?
    /// Text shown before anything is chosen (a drop-down's or a tag box's `placeholder`).
    public var placeholder: String?
    /// Whether the respondent may answer a value of their own that is not among ``choices``
    /// (SurveyJS's `allowCustomChoices`): the typed text is the answer (an element of it, for a
    /// multiple choice).
    public var allowsCustomChoices = false

    public init(
        choices: [Choice], minimumSelections: Int? = nil, maximumSelections: Int? = nil, isShuffled: Bool = false,
        isOrdered: Bool = false, presentation: String? = nil, selectAllLabel: String? = nil
    ) {
        self.choices = choices
        self.minimumSelections = minimumSelections
        self.maximumSelections = maximumSelections
        self.isShuffled = isShuffled
        self.isOrdered = isOrdered
        self.presentation = presentation
        self.selectAllLabel = selectAllLabel
    }

    /// The values "Select all" selects: every choice offered that is neither Other nor exclusive, in
    /// the order offered.
    public var selectAllValues: [String] {
        choices.filter { !$0.isOther && !$0.isExclusive }.map(\.value)
    }
}

/// How free text is asked.
public struct TextInput: Sendable, Hashable {
    public var isMultiline: Bool
    public var minimumLength: Int?
    public var maximumLength: Int?
    public var placeholder: String?
    /// A hint such as "email", "phone" or "url".
    public var presentation: String?
    /// A regular expression the text must contain a match of (SurveyJS's `regex` validator).
    public var pattern: String?
    /// Whether ``pattern`` ignores letter case.
    public var patternIgnoresCase = false

    public init(
        isMultiline: Bool = false, minimumLength: Int? = nil, maximumLength: Int? = nil, placeholder: String? = nil,
        presentation: String? = nil, pattern: String? = nil, patternIgnoresCase: Bool = false
    ) {
        self.isMultiline = isMultiline
        self.minimumLength = minimumLength
        self.maximumLength = maximumLength
        self.placeholder = placeholder
        self.presentation = presentation
        self.pattern = pattern
        self.patternIgnoresCase = patternIgnoresCase
    }
}

/// How a number is asked.
public struct NumberInput: Sendable, Hashable {
    public var minimum: Double?
    public var maximum: Double?
    public var step: Double?
    public var isInteger: Bool
    /// Label at the low end of a scale ("Not likely").
    public var minimumLabel: String?
    /// Label at the high end of a scale ("Very likely").
    public var maximumLabel: String?
    /// A hint such as "stars", "scale", "nps" or "slider".
    public var presentation: String?
    /// The unit the number is in, shown next to the field ("kg", "years"), already localised.
    public var unit: String?

    public init(
        minimum: Double? = nil, maximum: Double? = nil, step: Double? = nil, isInteger: Bool = false,
        minimumLabel: String? = nil, maximumLabel: String? = nil, presentation: String? = nil,
        unit: String? = nil
    ) {
        self.minimum = minimum
        self.maximum = maximum
        self.step = step
        self.isInteger = isInteger
        self.minimumLabel = minimumLabel
        self.maximumLabel = maximumLabel
        self.presentation = presentation
        self.unit = unit
    }
}

/// How a yes/no question is asked.
public struct BooleanInput: Sendable, Hashable {
    public var trueLabel: String
    public var falseLabel: String
    /// "yes-no", "true-false", "happy-sad" or "thumbs".
    public var presentation: String?
    /// The answer stored for yes (SurveyJS's `valueTrue`); `nil` stores `true`.
    public var trueValue: JSONValue?
    /// The answer stored for no (SurveyJS's `valueFalse`); `nil` stores `false`.
    public var falseValue: JSONValue?

    public init(
        trueLabel: String, falseLabel: String, presentation: String? = nil, trueValue: JSONValue? = nil,
        falseValue: JSONValue? = nil
    ) {
        self.trueLabel = trueLabel
        self.falseLabel = falseLabel
        self.presentation = presentation
        self.trueValue = trueValue
        self.falseValue = falseValue
    }

    /// The answer stored for yes (`flag` true) or no.
    public func storedValue(_ flag: Bool) -> JSONValue {
        flag ? trueValue ?? .bool(true) : falseValue ?? .bool(false)
    }

    /// Whether a stored `answer` means yes (`true`) or no (`false`); `nil` for anything else.
    public func flag(of answer: JSONValue) -> Bool? {
        if answer == storedValue(true) { return true }
        if answer == storedValue(false) { return false }
        return nil
    }
}

/// How a date is asked; bounds are `YYYY-MM-DD`.
public struct DateInput: Sendable, Hashable {
    public var earliest: String?
    public var latest: String?

    public init(earliest: String? = nil, latest: String? = nil) {
        self.earliest = earliest
        self.latest = latest
    }
}

/// One field of a composite answer.
public struct CompositeField: Sendable, Hashable {
    /// The key of this field in the answer object.
    public var name: String
    public var label: String
    /// A line shown with the label, already localised (a dynamic panel question's `description`).
    public var description: String?
    public var isRequired: Bool
    /// How the field itself is asked.
    public var input: InputPrimitive

    public init(
        name: String, label: String, description: String? = nil, isRequired: Bool = false, input: InputPrimitive
    ) {
        self.name = name
        self.label = label
        self.description = description
        self.isRequired = isRequired
        self.input = input
    }
}

/// Several fields answered together (a contact form, a matrix's rows).
public struct CompositeInput: Sendable, Hashable {
    public var fields: [CompositeField]
    /// "form" or "matrix".
    public var presentation: String?

    public init(fields: [CompositeField], presentation: String? = nil) {
        self.fields = fields
        self.presentation = presentation
    }
}

/// A repeating group: the same fields answered for each instance ("for each child…").
public struct RepeatInput: Sendable, Hashable {
    /// The fields of one instance.
    public var fields: [CompositeField]
    /// Fewest instances.
    public var minimumCount: Int
    /// Most instances, or `nil` for no limit.
    public var maximumCount: Int?
    /// How many instances there are when that is decided (a fixed count, an earlier answer, the
    /// choices of a loop); `nil` when the respondent adds and removes them (between the bounds).
    public var count: Int?
    /// Each instance's heading, already piped (`Child 2`, `About Alice`), one per instance shown: as
    /// many as ``count``, or as the current answer has (plus one for an instance being added).
    public var instanceTitles: [String]
    /// For each instance of the current answer, the names of the fields its conditions hide now.
    public var hiddenFields: [[String]]

    public init(
        fields: [CompositeField], minimumCount: Int = 0, maximumCount: Int? = nil, count: Int? = nil,
        instanceTitles: [String] = [], hiddenFields: [[String]] = []
    ) {
        self.fields = fields
        self.minimumCount = minimumCount
        self.maximumCount = maximumCount
        self.count = count
        self.instanceTitles = instanceTitles
        self.hiddenFields = hiddenFields
    }
}

/// A file reference (voice recordings, attachments).
public struct FileInput: Sendable, Hashable {
    /// Allowed file extensions, lower-case without the dot ("m4a", "wav"); empty for any type.
    public var allowedFormats: [String]
    /// Longest allowed recording, in seconds.
    public var maximumDurationSeconds: Double?
    /// What kind of file, e.g. "audio", "file" or "signature".
    public var presentation: String?
    /// Largest allowed file, in bytes, checked against each file's `size` when an answer gives it.
    public var maximumSizeBytes: Int?
    /// Most files in one answer (`1` for a single file); `nil` for no limit. The answer is then an
    /// array of files rather than one.
    public var maximumCount: Int?

    public init(
        allowedFormats: [String], maximumDurationSeconds: Double? = nil, presentation: String? = nil,
        maximumSizeBytes: Int? = nil, maximumCount: Int? = nil
    ) {
        self.allowedFormats = allowedFormats
        self.maximumDurationSeconds = maximumDurationSeconds
        self.presentation = presentation
        self.maximumSizeBytes = maximumSizeBytes
        self.maximumCount = maximumCount
    }

    /// An answer of the shape front ends build for this input, naming a file `name` with the first
    /// allowed extension (for simulation and analysis): `{"file", "durationSeconds"?, "size"?}`, in an
    /// array unless the input takes exactly one file or is a recording.
    public func sampleAnswer(name: String) -> JSONValue {
        var file: [String: JSONValue] = ["file": .string(name + "." + (allowedFormats.first ?? "pdf"))]
        if maximumDurationSeconds != nil { file["durationSeconds"] = 1 }
        if maximumSizeBytes != nil { file["size"] = 1 }
        return maximumCount == nil && presentation == "file" ? .array([.object(file)]) : .object(file)
    }

    /// A byte count for people: "512 bytes", "1.5 KB", "10 MB" (powers of 1024, at most one decimal).
    public static func byteCount(_ bytes: Int) -> String {
        let units = ["KB", "MB", "GB", "TB"]
        guard bytes >= 1024 else { return bytes == 1 ? "1 byte" : "\(bytes) bytes" }
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        let rounded = (value * 10).rounded() / 10
        return JSONValue.format(number: rounded) + " " + units[unit]
    }
}

/// The JSON form of input primitives, shared by the plugin ABI and the JSON-event protocol.
///
/// Every primitive is an object with a `"kind"` member (``InputPrimitive/kindName``) and the
/// members of its kind. Optional members that are `nil` are omitted; Booleans are always written, except
/// a choice's `isExclusive` (added later, written only when true).
/// Readers treat a missing Boolean as `false` and ignore members they do not know, so later
/// versions may add members.
///
/// ```json
/// {"kind":"single-choice","choices":[{"value":"red","label":"Red","isOther":false}],"shuffle":false,"ordered":false}
/// {"kind":"free-text","multiline":false,"maxLength":80,"placeholder":"#RRGGBB"}
/// {"kind":"number","min":0,"max":10,"step":1,"integer":true,"minLabel":"Not likely","presentation":"nps"}
/// {"kind":"boolean","trueLabel":"Yes","falseLabel":"No","presentation":"thumbs"}
/// {"kind":"date","earliest":"2000-01-01"}
/// {"kind":"composite","fields":[{"name":"email","label":"Email","required":true,"input":{"kind":"free-text","multiline":false}}]}
/// {"kind":"file-reference","formats":["m4a"],"maxDurationSeconds":60,"presentation":"audio"}
/// {"kind":"none"}
/// ```
extension InputPrimitive {
    /// The primitive as a JSON object.
    public var jsonValue: JSONValue {
        var members: [String: JSONValue] = ["kind": .string(kindName)]
        func put(_ key: String, _ value: String?) { if let value { members[key] = .string(value) } }
        func put(_ key: String, _ value: Double?) { if let value { members[key] = .number(value) } }
        func put(_ key: String, _ value: Int?) { if let value { members[key] = .number(Double(value)) } }
        switch self {
        case .none:
            break
        case .singleChoice(let input), .multipleChoice(let input):
            members["choices"] = .array(input.choices.map(\.jsonValue))
            put("minSelections", input.minimumSelections)
            put("maxSelections", input.maximumSelections)
            members["shuffle"] = .bool(input.isShuffled)
            members["ordered"] = .bool(input.isOrdered)
            put("presentation", input.presentation)
            put("selectAll", input.selectAllLabel)
            put("placeholder", input.placeholder)
            if input.allowsCustomChoices { members["allowCustomChoices"] = true }
        case .freeText(let input):
            members["multiline"] = .bool(input.isMultiline)
            put("minLength", input.minimumLength)
            put("maxLength", input.maximumLength)
            put("placeholder", input.placeholder)
            put("presentation", input.presentation)
            put("pattern", input.pattern)
            if input.patternIgnoresCase { members["patternIgnoresCase"] = true }
        case .number(let input):
            put("min", input.minimum)
            put("max", input.maximum)
            put("step", input.step)
            members["integer"] = .bool(input.isInteger)
            put("minLabel", input.minimumLabel)
            put("maxLabel", input.maximumLabel)
            put("unit", input.unit)
            put("presentation", input.presentation)
        case .boolean(let input):
            members["trueLabel"] = .string(input.trueLabel)
            members["falseLabel"] = .string(input.falseLabel)
            put("presentation", input.presentation)
            if let value = input.trueValue { members["trueValue"] = value }
            if let value = input.falseValue { members["falseValue"] = value }
        case .date(let input):
            put("earliest", input.earliest)
            put("latest", input.latest)
        case .composite(let input):
            members["fields"] = .array(input.fields.map(\.jsonValue))
            put("presentation", input.presentation)
        case .repeating(let input):
            members["fields"] = .array(input.fields.map(\.jsonValue))
            members["minCount"] = .number(Double(input.minimumCount))
            put("maxCount", input.maximumCount)
            put("count", input.count)
            members["instanceTitles"] = .array(input.instanceTitles.map { .string($0) })
            members["hidden"] = .array(input.hiddenFields.map { .array($0.map { .string($0) }) })
        case .fileReference(let input):
            members["formats"] = .array(input.allowedFormats.map { .string($0) })
            put("maxDurationSeconds", input.maximumDurationSeconds)
            put("presentation", input.presentation)
            put("maxSizeBytes", input.maximumSizeBytes)
            put("maxFiles", input.maximumCount)
        }
        return .object(members)
    }

    /// Reads a primitive from its JSON form.
    ///
    /// - Parameters:
    ///   - json: an object with a `"kind"` member.
    ///   - path: where `json` is, for error messages.
    /// - Throws: ``SurveyError`` (`invalidValue` or `missingField`) naming the JSON path of the bad member.
    public init(json: JSONValue, path: JSONPath = .root) throws(SurveyError) {
        var reader = try OptionsReader(json, path: path)
        let kind = try reader.string("kind")
        switch kind {
        case "none":
            self = .none
        case "single-choice", "multiple-choice":
            let choices =
                try reader.optionalArray("choices") { (element, path) throws(SurveyError) -> Choice in
                    try Choice(json: element, path: path)
                } ?? []
            var input = ChoiceInput(
                choices: choices, minimumSelections: try reader.optionalInt("minSelections"),
                maximumSelections: try reader.optionalInt("maxSelections"),
                isShuffled: try reader.bool("shuffle", default: false),
                isOrdered: try reader.bool("ordered", default: false),
                presentation: try reader.optionalString("presentation"),
                selectAllLabel: try reader.optionalString("selectAll"))
            input.placeholder = try reader.optionalString("placeholder")
            input.allowsCustomChoices = try reader.bool("allowCustomChoices", default: false)
            self = kind == "single-choice" ? .singleChoice(input) : .multipleChoice(input)
        case "free-text":
            self = .freeText(
                TextInput(
                    isMultiline: try reader.bool("multiline", default: false),
                    minimumLength: try reader.optionalInt("minLength"),
                    maximumLength: try reader.optionalInt("maxLength"),
                    placeholder: try reader.optionalString("placeholder"),
                    presentation: try reader.optionalString("presentation"),
                    pattern: try reader.optionalString("pattern"),
                    patternIgnoresCase: try reader.bool("patternIgnoresCase", default: false)))
        case "number":
            self = .number(
                NumberInput(
                    minimum: try reader.optionalDouble("min"), maximum: try reader.optionalDouble("max"),
                    step: try reader.optionalDouble("step"), isInteger: try reader.bool("integer", default: false),
                    minimumLabel: try reader.optionalString("minLabel"),
                    maximumLabel: try reader.optionalString("maxLabel"),
                    presentation: try reader.optionalString("presentation"), unit: try reader.optionalString("unit")))
        case "boolean":
            self = .boolean(
                BooleanInput(
                    trueLabel: try reader.string("trueLabel", default: "Yes"),
                    falseLabel: try reader.string("falseLabel", default: "No"),
                    presentation: try reader.optionalString("presentation"), trueValue: reader.value("trueValue"),
                    falseValue: reader.value("falseValue")))
        case "date":
            self = .date(
                DateInput(earliest: try reader.optionalString("earliest"), latest: try reader.optionalString("latest")))
        case "composite":
            let fields = try reader.optionalArray("fields", CompositeField.init(json:path:)) ?? []
            self = .composite(CompositeInput(fields: fields, presentation: try reader.optionalString("presentation")))
        case "repeat":
            self = .repeating(
                RepeatInput(
                    fields: try reader.optionalArray("fields", CompositeField.init(json:path:)) ?? [],
                    minimumCount: try reader.int("minCount", default: 0, in: 0...Int.max),
                    maximumCount: try reader.optionalInt("maxCount", in: 0...Int.max),
                    count: try reader.optionalInt("count", in: 0...Int.max),
                    instanceTitles: try reader.optionalStringArray("instanceTitles") ?? [],
                    hiddenFields: try reader.optionalArray("hidden") {
                        (element, path) throws(SurveyError) -> [String] in
                        guard case .array(let names) = element else {
                            throw SurveyError(.invalidValue, "expected an array of field names", path: path)
                        }
                        return names.compactMap(\.stringValue)
                    } ?? []))
        case "file-reference":
            self = .fileReference(
                FileInput(
                    allowedFormats: try reader.optionalStringArray("formats") ?? [],
                    maximumDurationSeconds: try reader.optionalDouble("maxDurationSeconds"),
                    presentation: try reader.optionalString("presentation"),
                    maximumSizeBytes: try reader.optionalInt("maxSizeBytes", in: 1...Int.max),
                    maximumCount: try reader.optionalInt("maxFiles", in: 1...Int.max)))
        default:
            throw reader.error("kind", "unknown input kind '\(kind)'")
        }
    }
}

extension Choice {
    /// The choice as a JSON object: `value`, `label`, `isOther`, and `icon`/`visibleIf` when set,
    /// `isExclusive` and `numeric` (the value is a number written as text) when true, `image` when set.
    public var jsonValue: JSONValue {
        var members: [String: JSONValue] = [
            "value": .string(value), "label": .string(label), "isOther": .bool(isOther),
        ]
        if let iconName { members["icon"] = .string(iconName) }
        if let visibleIf { members["visibleIf"] = .string(visibleIf) }
        if isExclusive { members["isExclusive"] = .bool(true) }
        if isNumeric { members["numeric"] = .bool(true) }
        if let imageReference { members["image"] = .string(imageReference) }
        return .object(members)
    }

    /// Reads a choice from its JSON form; `label` defaults to `value`.
    /// - Throws: ``SurveyError`` naming the JSON path of the bad member.
    public init(json: JSONValue, path: JSONPath = .root) throws(SurveyError) {
        var reader = try OptionsReader(json, path: path)
        let value = try reader.string("value")
        self.init(
            value: value, label: try reader.string("label", default: value),
            iconName: try reader.optionalString("icon"),
            isOther: try reader.bool("isOther", default: false), visibleIf: try reader.optionalString("visibleIf"),
            isExclusive: try reader.bool("isExclusive", default: false))
        isNumeric = try reader.bool("numeric", default: false)
        imageReference = try reader.optionalString("image")
    }
}

extension CompositeField {
    /// The field as JSON: `{"name", "label", "description"?, "required", "input"}`.
    public var jsonValue: JSONValue {
        var members: [String: JSONValue] = [
            "name": .string(name), "label": .string(label), "required": .bool(isRequired), "input": input.jsonValue,
        ]
        if let description { members["description"] = .string(description) }
        return .object(members)
    }

    /// Reads a field from its JSON form.
    init(json element: JSONValue, path: JSONPath) throws(SurveyError) {
        var field = try OptionsReader(element, path: path)
        let name = try field.string("name")
        let label = try field.string("label", default: name)
        let description = try field.optionalString("description")
        let isRequired = try field.bool("required", default: false)
        guard let input = field.value("input") else {
            throw field.error(nil, "missing required member 'input' (an input primitive)", kind: .missingField)
        }
        self.init(
            name: name, label: label, description: description, isRequired: isRequired,
            input: try InputPrimitive(json: input, path: path.appending("input")))
    }
}

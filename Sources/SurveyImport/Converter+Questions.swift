import Foundation
import SurveyCore

/// A question's kind in this engine, with its options.
struct ConvertedKind {
    var type: String
    var options: [String: JSONValue] = [:]
    /// Validators the kind implies (an `email` text adds an email check, as SurveyJS does).
    var validators: [JSONValue] = []
    /// A date's `minValueExpression` and `maxValueExpression` (by `min`/`max`): checked as
    /// expression validators reading the question's own value (``boundValidators(_:reading:)``).
    var boundExpressions: [String: String] = [:]
    /// Members of this kind that only affect layout.
    var layout: Set<String> = []
    /// The empty entries survey-core's data holds for it before anything is answered (a dynamic
    /// panel's `panelCount`).
    var emptyEntries: Int?
    /// What each of those entries holds: its items' `defaultValue`s.
    var entryDefaults: [String: JSONValue] = [:]
    /// A matrix's column totals (`totalType` by column): survey-core stores them as `<name>-total`.
    var totals: [String: String] = [:]
    /// The question a dynamic panel's count is bound to (`bindings.panelCount`).
    var panelCountBinding: String?
    /// A repeat's items with an Other choice: survey-core keeps `"other"` and `<item>-Comment` in each entry.
    var entryOthers: [String] = []
    /// A repeat's file items: survey-core keeps each file of an entry as `{name, type, content}`.
    var entryFiles: [String] = []
    /// A question only rules may fill (SurveyJS's `expression` question without an expression).
    var isReadOnly = false
    /// A range slider asked as two numbers: survey-core's `[low, high]` is `{"from", "to"}` here.
    var isRange = false
    /// `choicesVisibleIf` of a question whose choices are carried forward (`{item}` read as
    /// `{$item.value}`): the step's own `choicesVisibleIf`, since its choices are not listed.
    var choicesVisibleIf: String?
    /// A `matrixdropdown`'s column defaults: survey-core's data holds them in every row once shown.
    var cellDefaults: [String: JSONValue] = [:]
    /// The question cannot pass unanswered although SurveyJS does not mark it required (a dynamic
    /// matrix whose shown rows each need a required cell).
    var requiresAnswer = false
}

extension Converter {
    /// Converts the type-specific members of a question; `nil` for a type the converter does not know.
    mutating func question(_ type: String, _ members: inout Members, id: String) -> ConvertedKind? {
        switch type {
        case "text":
            var kind = textQuestion(&members)
            // survey-core's text question has no choices: choice members given to one do nothing.
            kind.layout.formUnion(Self.choiceMembers)
            return kind
        case "comment":
            // survey-core keeps a number given to a comment as it keeps one given to a text question.
            var kind = ConvertedKind(type: "text", options: ["multiline": true, "keepNumbers": true])
            textLimits(&members, into: &kind)
            return kind
        case "radiogroup", "dropdown", "buttongroup":
            var kind = ConvertedKind(type: type == "dropdown" ? "dropdown" : "single-choice")
            choiceOptions(&members, into: &kind, multiple: false)
            if type == "dropdown" {
                placeholder(&members, into: &kind)
                generatedChoices(&members, into: &kind)
                customChoices(&members, into: &kind)
            }
            offerNothingWithoutChoices(&kind, id: id, path: members.path("choices"))
            return kind
        case "checkbox", "tagbox":
            var kind = ConvertedKind(type: type == "tagbox" ? "tagbox" : "multiple-choice")
            choiceOptions(&members, into: &kind, multiple: true)
            if type == "tagbox" {
                placeholder(&members, into: &kind)
                customChoices(&members, into: &kind)
            }
            offerNothingWithoutChoices(&kind, id: id, path: members.path("choices"))
            return kind
        case "imagepicker":
            var kind = ConvertedKind(type: "image-choice")
            let multiple = members.take("multiSelect") == .bool(true)
            if multiple { kind.options["multiple"] = true }
            choiceOptions(&members, into: &kind, multiple: multiple, images: true)
            // survey-core shows a choice without an imageLink as an empty picture: here it is a plain choice.
            if case .array(let choices)? = kind.options["choices"], choices.contains(where: { $0["image"] == nil }) {
                note(
                    .layoutOnly, members.path("choices"), "image choices without an imageLink",
                    "asked as a \(multiple ? "multiple" : "single") choice without pictures")
                kind.type = multiple ? "multiple-choice" : "single-choice"
                kind.options["multiple"] = nil
                kind.options["choices"] = .array(
                    choices.map { choice in
                        guard case .object(var members) = choice else { return choice }
                        members["image"] = nil
                        return .object(members)
                    })
            }
            if kind.options["choices"]?.arrayValue?.isEmpty == true {
                kind.type = multiple ? "multiple-choice" : "single-choice"
                kind.options["multiple"] = nil
            }
            offerNothingWithoutChoices(&kind, id: id, path: members.path("choices"))
            return kind
        case "boolean":
            var kind = ConvertedKind(type: "boolean")
            for (from, to) in [("labelTrue", "trueLabel"), ("labelFalse", "falseLabel")] {
                if let label = text(members.take(from), members.path(from)) { kind.options[to] = label }
            }
            // The values survey-core stores for yes and no, when not true and false.
            for (from, to) in [("valueTrue", "trueValue"), ("valueFalse", "falseValue")] {
                if let value = members.take(from), !value.isNull, value != .bool(from == "valueTrue") {
                    kind.options[to] = value
                }
            }
            return kind
        case "rating": return rating(&members)
        case "ranking":
            var kind = ConvertedKind(type: "ranking")
            choiceOptions(&members, into: &kind, multiple: true, itemsKey: "items")
            // No items listed (an app fills them in): survey-core shows nothing to rank, and a required
            // one blocks.
            if kind.options["items"]?.arrayValue?.isEmpty == true {
                var empty = nothingToAnswer("ranking '\(id)' without choices", at: members.path("choices"))
                empty.layout = kind.layout
                return empty
            }
            return kind
        case "matrix":
            let kind = matrix(&members)
            guard kind.options["columns"]?.arrayValue?.isEmpty == false else {
                var empty = nothingToAnswer("matrix '\(id)' without columns", at: members.path("columns"))
                empty.layout = kind.layout
                return empty
            }
            return kind
        case "matrixdropdown": return matrixDropdownWithColumnChecks(&members, id: id)
        case "paneldynamic": return dynamicPanel(&members, id: id)
        case "matrixdynamic": return repeatGroup(&members, itemsKey: "columns", dynamicMatrix: true)
        case "html":
            var kind = ConvertedKind(type: "content")
            if let html = text(members.take("html"), members.path("html")) { kind.options["body"] = html }
            return kind
        case "image":
            var kind = ConvertedKind(
                type: "content", layout: ["imageFit", "imageHeight", "imageWidth", "contentMode", "altText"])
            if let link = members.take("imageLink")?.stringValue, !link.isEmpty {
                var media: [String: JSONValue] = ["url": .string(link), "kind": "image"]
                if let alt = text(members.take("altText"), members.path("altText")) { media["alt"] = alt }
                if members.take("contentMode")?.stringValue == "video" { media["kind"] = "video" }
                kind.options["media"] = .object(media)
            }
            return kind
        case "expression":
            // survey-core's data holds its value wherever its page is, visited or not (while it shows).
            dataShape.computed.append(id)
            // survey-core keeps its value in the data, hidden or not (per-question clearing "none").
            if members.members["clearIfInvisible"] == "none", members.take("clearIfInvisible") != nil {
                dataShape.keptComputed.append(id)
            }
            return expressionQuestion(&members)
        case "multipletext":
            let kind = multipleText(&members)
            guard kind.options["items"]?.arrayValue?.isEmpty == false else {
                return nothingToAnswer("multiple text '\(id)' without items", at: members.path("items"))
            }
            return kind
        case "file": return file(&members)
        case "signaturepad":
            var kind = ConvertedKind(
                type: "signature",
                layout: [
                    "signatureWidth", "signatureHeight", "penColor", "backgroundColor", "backgroundImage",
                    "penMinWidth",
                    "penMaxWidth", "allowClear", "showPlaceholder", "placeholder", "placeholderReadOnly",
                    "signatureAutoScaleEnabled", "waitForUpload",
                ])
            // survey-core stores the drawing itself as a data URL unless storeDataAsText is false.
            if members.take("storeDataAsText") != .bool(false) { kind.options["inlineData"] = true }
            if let format = members.take("dataFormat")?.stringValue {
                switch format {
                case "png", "svg": kind.options["formats"] = [.string(format)]
                case "jpeg", "jpg": kind.options["formats"] = ["jpeg", "jpg"]
                default:
                    note(
                        .notConverted, members.path("dataFormat"), "dataFormat '\(format)'", "expected png, jpeg or svg"
                    )
                }
            }
            return kind
        case "slider":
            if members.take("sliderType") == "range" { return rangeSlider(&members, id: id) }
            var kind = ConvertedKind(type: "slider")
            for key in ["min", "max", "step"] {
                if let value = members.take(key) {
                    // (survey-core's serializer reads a number written as text, `"min": "1"`, as the number)
                    if let number = value.numberValue ?? value.stringValue.flatMap({ Double($0) }) {
                        kind.options[key] = .number(number)
                    } else {
                        note(.notConverted, members.path(key), "\(key) \(describe(value))", "expected a number")
                    }
                }
            }
            return kind
        default:
            return nil
        }
    }

    // MARK: Text

    mutating func textQuestion(_ members: inout Members) -> ConvertedKind {
        let inputType = members.take("inputType")?.stringValue ?? "text"
        switch inputType {
        case "number", "range":
            var kind = ConvertedKind(type: inputType == "range" ? "slider" : "number")
            for key in ["min", "max", "step"] {
                guard let value = members.take(key) else { continue }
                if let number = value.numberValue ?? value.stringValue.flatMap(Double.init) {
                    // survey-core checks an answer against a step greater than 0 only.
                    if key == "step", number <= 0, kind.type == "number" {
                        note(
                            .notConverted, members.path(key), "step \(describe(value))",
                            "it checks nothing (as in survey-core); left out")
                        continue
                    }
                    kind.options[key] = .number(number)
                } else {
                    note(.notConverted, members.path(key), "\(key) \(describe(value))", "expected a number")
                }
            }
            if kind.type == "number" {
                // survey-core's bounds from expressions, checked with the answer and on Next.
                for (from, to) in [("minValueExpression", "minExpression"), ("maxValueExpression", "maxExpression")] {
                    if let source = expression(members.take(from), members.path(from)) { kind.options[to] = source }
                }
            } else {
                expressionBounds(&members)
            }
            kind.layout = ["placeholder", "maxLength"]
            return kind
        case "date":
            var kind = ConvertedKind(type: "date")
            for (from, to) in [("min", "earliest"), ("max", "latest")] {
                guard let value = members.take(from) else { continue }
                if let date = value.stringValue, date.count == 10 {
                    kind.options[to] = value
                } else {
                    note(.notConverted, members.path(from), "\(from) \(describe(value))", "expected a date YYYY-MM-DD")
                }
            }
            dateBounds(&members, into: &kind)
            kind.layout = ["placeholder", "maxLength", "step"]
            return kind
        default:
            // survey-core keeps a number given to a text question (a default, a trigger, the host's data)
            // as a number; what a respondent types is text.
            var kind = ConvertedKind(type: "text", options: ["keepNumbers": true])
            textLimits(&members, into: &kind)
            switch inputType {
            case "text", "search": break
            // survey-core checks an email address on Next, as a validator does.
            case "email": kind.validators.append(["type": "email"])
            case "password", "tel", "url", "color", "time", "month", "week", "datetime-local":
                kind.options["inputType"] = .string(inputType)
                // survey-core checks no phone number or address (a browser's phone and URL boxes take
                // any text); the other types' boxes give well-formed values.
                if inputType == "tel" || inputType == "url" { kind.options["checkFormat"] = false }
            case "datetime":
                kind.options["inputType"] = "datetime-local"
            default:
                note(.notConverted, members.path("inputType"), "inputType '\(inputType)'", "asked as free text")
            }
            if let maskType = members.take("maskType")?.stringValue, maskType != "none" {
                mask(maskType, &members, into: &kind)
            }
            for key in ["min", "max"] {
                // survey-core refuses a time (month, week, date and time) outside them.
                guard let bound = members.members[key]?.stringValue,
                    let format = kind.options["inputType"]?.stringValue.flatMap({ Self.boundFormats[$0] }),
                    bound.range(of: format, options: .regularExpression) != nil
                else { continue }
                _ = members.take(key)
                kind.options[key] = .string(bound)
            }
            for key in ["min", "max", "step"] where kind.options[key] == nil && members.take(key) != nil {
                note(
                    .notConverted, members.path(key), "\(key) on inputType '\(inputType)'",
                    "bounds apply to numbers, dates, times, months, weeks and dates with times only, written as such")
            }
            expressionBounds(&members)
            return kind
        }
    }

    /// The shape of a `min`/`max` the text type reads, by `inputType`.
    static let boundFormats = [
        "time": "^[0-9]{1,2}:[0-9]{2}$", "month": "^[0-9]{4}-[0-9]{2}$", "week": "^[0-9]{4}-W[0-9]{2}$",
        "datetime-local": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{1,2}:[0-9]{2}$",
    ]

    /// `maskType` with `maskSettings` → the text's `mask`.
    mutating func mask(_ type: String, _ members: inout Members, into kind: inout ConvertedKind) {
        let known: [String: [String]] = [
            "pattern": ["pattern", "saveMaskedValue"],
            "numeric": ["decimalSeparator", "thousandsSeparator", "precision", "allowNegativeValues", "min", "max"],
            "currency": [
                "decimalSeparator", "thousandsSeparator", "precision", "allowNegativeValues", "min", "max", "prefix",
                "suffix",
            ],
            "datetime": ["pattern"],
        ]
        // A masked phone number is checked by its mask (survey-core stores the digits typed).
        if known[type] != nil, kind.options["inputType"] == "tel" { kind.options["inputType"] = nil }
        guard let keys = known[type], kind.options["inputType"] == nil else {
            note(
                .notConverted, members.path("maskType"), "maskType '\(type)'",
                "masks are pattern, numeric, currency or datetime, on plain text")
            _ = members.take("maskSettings")
            return
        }
        var mask: [String: JSONValue] = ["type": .string(type)]
        var settings = Members(members.take("maskSettings")?.objectMembers ?? [:], path: members.path("maskSettings"))
        for key in keys {
            if let value = settings.take(key) { mask[key] = value }
        }
        if type != "pattern", let saved = settings.take("saveMaskedValue"), saved == .bool(true) {
            note(
                .notConverted, settings.path("saveMaskedValue"), "saveMaskedValue on a \(type) mask",
                "the number itself is kept")
        }
        if type == "datetime", mask["pattern"] == nil { mask["pattern"] = "mm/dd/yyyy" }
        if type == "pattern", mask["pattern"] == nil {
            note(.notConverted, settings.path, "a pattern mask without a pattern", "no mask is applied")
            finish(settings)
            return
        }
        finish(settings)
        kind.options["mask"] = .object(mask)
    }

    mutating func expressionBounds(_ members: inout Members) {
        for key in ["minValueExpression", "maxValueExpression"] where members.take(key) != nil {
            note(
                .notConverted, members.path(key), "'\(key)'",
                "bounds given by an expression are not supported; use an expression validator")
        }
    }

    mutating func textLimits(_ members: inout Members, into kind: inout ConvertedKind) {
        if let length = members.take("maxLength") {
            if let count = length.intValue, count > 0 { kind.options["maxLength"] = .number(Double(count)) }
        } else if let maximumTextLength {
            kind.options["maxLength"] = .number(Double(maximumTextLength))
        }
        placeholder(&members, into: &kind)
        kind.layout.formUnion(["rows", "autoGrow", "allowResize", "acceptCarriageReturn"])
    }

    mutating func placeholder(_ members: inout Members, into kind: inout ConvertedKind) {
        if let hint = text(
            members.take(anyOf: "placeholder", "placeHolder", "optionsCaption")?.value, members.path("placeholder"))
        {
            kind.options["placeholder"] = hint
        }
    }

    // MARK: Choices

    /// `choices` (or `items` for ranking), Other, None, Select all, order and selection limits.
    mutating func choiceOptions(
        _ members: inout Members, into kind: inout ConvertedKind, multiple: Bool, images: Bool = false,
        itemsKey: String = "choices"
    ) {
        let choicesVisibleIf = expression(members.take("choicesVisibleIf"), members.path("choicesVisibleIf"))
        var choices = self.choices(members.take("choices"), path: members.path("choices"), images: images)
        if let condition = choicesVisibleIf?.stringValue {
            choices = choices.map { Self.applyItemCondition(condition, to: $0) }
        }
        if let order = members.take("choicesOrder")?.stringValue {
            switch order {
            case "random": kind.options["shuffle"] = true
            case "asc", "desc":
                choices.sort { Self.sortKey($0) < Self.sortKey($1) }
                if order == "desc" { choices.reverse() }
            case "none": break
            default:
                note(
                    .notConverted, members.path("choicesOrder"), "choicesOrder '\(order)'",
                    "expected none, asc, desc or random")
            }
        }
        // survey-core offers the listed choices when no question has the name choices come from.
        if let source = members.members["choicesFromQuestion"], let name = source.stringValue,
            !valueNames.contains(name)
        {
            _ = members.take("choicesFromQuestion")
            _ = members.take("choicesFromQuestionMode")
            choicesSourceDropped = true
            note(
                .notConverted, members.path("choicesFromQuestion"), "choicesFromQuestion '\(name)'",
                "no question of the survey has that name: the listed choices are offered, as in survey-core")
        }
        // Choices made of a dynamic matrix's rows or a dynamic panel's entries (one column or field
        // gives the values): not carried forward here; the listed choices stay (none: nothing to pick).
        if let values = members.take("choiceValuesFromQuestion") {
            let source = members.take("choicesFromQuestion").map { describe($0) } ?? "(none)"
            _ = members.take("choiceTextsFromQuestion")
            choicesSourceDropped = true
            note(
                .notConverted, members.path("choiceValuesFromQuestion"),
                "choices from the entries of \(source) (their \(describe(values)))",
                "only a choice question's choices are carried forward; the listed choices are offered instead")
        }
        // Choices copied from another question replace any listed ones, as in survey-core.
        let copiesChoices = members.members["choicesFromQuestion"] != nil && !choicesSourceDropped
        if !copiesChoices {
            kind.options[itemsKey] = .array(choices)
        } else if let condition = choicesVisibleIf?.stringValue {
            // Filters the carried choices: each is read as `{$item.value}` where the condition says `{item}`.
            kind.choicesVisibleIf = Self.replacingReferences(in: condition) { reference in
                reference.trimmingCharacters(in: .whitespaces).lowercased() == "item"
                    ? "{$item.value}" : "{\(reference)}"
            }
        }
        if itemsKey == "items" { return }
        if let other = members.take(anyOf: "showOtherItem", "hasOther"), other.value == .bool(true) {
            kind.options["other"] = text(members.take("otherText"), members.path("otherText")) ?? true
            // A listed choice of the value 'other' is a second Other item in survey-core (picking it
            // asks for the text too): the Other item stands for it here.
            if var listed = kind.options[itemsKey]?.arrayValue,
                let index = listed.firstIndex(where: { ($0["value"] ?? $0) == "other" })
            {
                listed.remove(at: index)
                kind.options[itemsKey] = .array(listed)
                note(
                    .notConverted, members.path("choices"), "a choice of the value 'other' beside the Other item",
                    "survey-core shows both, and either one is the Other answer; the Other item stands for it")
            }
        } else if members.take("otherText") != nil {
            note(.layoutOnly, members.path("otherText"), "property 'otherText'", "there is no Other item")
        }
        if let none = members.take(anyOf: "showNoneItem", "hasNone"), none.value == .bool(true) {
            kind.options["none"] = text(members.take("noneText"), members.path("noneText")) ?? true
        } else {
            _ = members.take("noneText")
        }
        if multiple {
            var selectAllKey = "showSelectAllItem"
            if let all = members.take(anyOf: "showSelectAllItem", "hasSelectAll"), all.value == .bool(true) {
                selectAllKey = all.key
                kind.options["selectAll"] = text(members.take("selectAllText"), members.path("selectAllText")) ?? true
            } else {
                _ = members.take("selectAllText")
            }
            for (from, to) in [("minSelectedChoices", "minSelections"), ("maxSelectedChoices", "maxSelections")] {
                if let value = members.take(from), let count = value.intValue, count > 0 {
                    kind.options[to] = .number(Double(count))
                }
            }
            // More than can be picked limits nothing in survey-core (the app may fill the choices in
            // at run time): left out, where the listed choices are all there will be.
            if let maximum = kind.options["maxSelections"]?.intValue, let listed = kind.options[itemsKey]?.arrayValue,
                !copiesChoices, members.members["choicesByUrl"] == nil,
                maximum > listed.count + (kind.options["other"] == nil ? 0 : 1)
            {
                kind.options["maxSelections"] = nil
                note(
                    .notConverted, members.path("maxSelectedChoices"), "maxSelectedChoices \(maximum)",
                    "more than the \(listed.count) choices listed: it limits nothing (as in survey-core); left out")
            }
            // survey-core shows Select all disabled while fewer choices may be picked than are
            // listed (`getSelectAllEnabled`): nobody can pick it, so it is left out.
            if kind.options["selectAll"] != nil, let maximum = kind.options["maxSelections"]?.intValue,
                let listed = kind.options[itemsKey]?.arrayValue?.count, maximum < listed
            {
                kind.options["selectAll"] = nil
                note(
                    .notConverted, members.path(selectAllKey), "Select all with maxSelectedChoices \(maximum)",
                    "survey-core shows it disabled, as it would pick all \(listed) choices; it is left out")
            }
        }
        if let source = members.take("choicesByUrl") {
            // Kept as it is: the engine fetches the list when the survey loads (and caches it).
            let known: Set<String> = ["url", "path", "valueName", "titleName", "imageLinkName", "allowEmptyResponse"]
            if case .object(let settings) = source, let url = settings["url"]?.stringValue, !url.contains("{") {
                kind.options["choicesByUrl"] = .object(settings.filter { known.contains($0.key) })
                let scheme = url.lowercased()
                if !scheme.hasPrefix("http://"), !scheme.hasPrefix("https://") {
                    note(
                        .notConverted, members.path("choicesByUrl").appending("url"), "choicesByUrl '\(url)'",
                        "a relative address, which a browser fetches from the page the survey is on; here it cannot be fetched, as a list whose server is gone: the listed choices are offered, or else the question is not asked"
                    )
                }
                if kind.options["choices"]?.arrayValue?.isEmpty == true { kind.options["choices"] = nil }
                for key in settings.keys.sorted() where !known.contains(key) {
                    note(
                        .notConverted, members.path("choicesByUrl").appending(key), "choicesByUrl '\(key)'",
                        "only url, path, valueName, titleName, imageLinkName and allowEmptyResponse are read")
                }
            } else {
                note(
                    .notConverted, members.path("choicesByUrl"), "'choicesByUrl'",
                    "a URL with {placeholders} (choices that depend on answers) is not supported; only the listed choices are offered"
                )
            }
        }
        if let enable = members.take("choicesEnableIf") {
            note(
                .notConverted, members.path("choicesEnableIf"), "choicesEnableIf \(describe(enable))",
                "choices cannot be disabled, only hidden")
        }
        kind.layout.formUnion([
            "colCount", "separateSpecialChoices", "showClearButton", "allowClear", "otherPlaceholder", "searchEnabled",
            "hideSelectedItems", "closeOnSelect", "searchMode", "choicesLazyLoadEnabled", "choicesLazyLoadPageSize",
            "itemComponent", "showLabel", "imageFit", "imageHeight", "imageWidth", "contentMode", "longTap",
            "otherErrorText", "renderAs", "textWrapEnabled", "inputFieldComponent",
            // Select all exists on checkboxes only (taken there); survey-core ignores it elsewhere.
            "hasSelectAll", "showSelectAllItem",
        ])
    }

    /// SurveyJS choices → ours: plain values stay; objects keep `value`, `text` (as `label`),
    /// `visibleIf` and, for pictures, `imageLink` (as `image`).
    mutating func choices(_ json: JSONValue?, path: JSONPath, images: Bool) -> [JSONValue] {
        guard let json else { return [] }
        guard case .array(let list) = json else {
            note(.notConverted, path, "choices that are \(json.kindDescription)", "expected an array")
            return []
        }
        var result: [JSONValue] = []
        var values: Set<String> = []
        for (index, item) in list.enumerated() {
            let itemPath = path.appending(index)
            // survey-core offers a choice whose value is "" (an "All" or "None" entry of an app's
            // filter), but picking it stores no answer: the question stays empty (and a required
            // one unanswered). Here a choice needs a value; no answer is the same.
            if (item.objectMembers?["value"] ?? item).stringValue == "" {
                let label = item["text"]?.stringValue.map { " ('\($0)')" } ?? ""
                note(
                    .notConverted, itemPath, "a choice with the empty value \"\"\(label)",
                    "picking it leaves the question unanswered in survey-core; it is left out, and no answer means the same"
                )
                continue
            }
            // survey-core lists a repeated value twice; both mean one answer, so it is offered once.
            if let value = (item.objectMembers?["value"] ?? item).choiceKey,
                !values.insert(Self.splitChoice(value)?.value ?? value).inserted
            {
                note(
                    .notConverted, itemPath, "a second choice with the value '\(value)'",
                    "both would store the same answer; it is offered once")
                continue
            }
            switch item {
            case .string(let string):
                if let (value, label) = Self.splitChoice(string) {
                    result.append(["value": .string(value), "label": .string(label)])
                } else {
                    result.append(images ? ["value": item] : item)
                }
            case .number:
                result.append(images ? ["value": item] : item)
            case .bool(let flag):
                // A Boolean value is offered as its text and stored as the Boolean in the data shape.
                choicesHaveBooleans = true
                result.append(["value": .string(flag ? "true" : "false")])
            case .object(let object):
                var members = Members(object, path: itemPath)
                if case .bool(let flag)? = members.members["value"] {
                    choicesHaveBooleans = true
                    members = Members(
                        object.merging(["value": .string(flag ? "true" : "false")]) { _, new in new }, path: itemPath)
                }
                let objectValue: JSONValue? =
                    if case .object? = members.members["value"] {
                        members.members["value"]
                    } else if members.members[
                        "value"] == nil && members.members["text"] == nil
                    { item } else { nil }
                if let objectValue {
                    // survey-core keeps an object as the choice's value (`{"yes": "ja"}` without a value
                    // is its own value): offered as its JSON text, stored as the object in the data shape.
                    let key = JSONWriter.string(from: objectValue)
                    objectChoices[key] = objectValue
                    members = Members(object.merging(["value": .string(key)]) { _, new in new }, path: itemPath)
                    if objectValue == item { members = Members(["value": .string(key)], path: itemPath) }
                }
                if members.members["value"] == nil, case .string(let text)? = members.members["text"] {
                    // survey-core takes the text of a choice without a value as its value.
                    members = Members(object.merging(["value": .string(text)]) { _, new in new }, path: itemPath)
                }
                guard var value = members.take("value"), value.stringValue != nil || value.numberValue != nil else {
                    note(.notConverted, itemPath, "a choice without a string or number value", "the choice is left out")
                    continue
                }
                var split: String?
                if let string = value.stringValue, let (before, after) = Self.splitChoice(string) {
                    value = .string(before)
                    split = after
                }
                var choice: [String: JSONValue] = ["value": value]
                if let label = text(members.take("text"), members.path("text")) ?? split.map(JSONValue.string) {
                    choice["label"] = label
                }
                if let condition = expression(members.take("visibleIf"), members.path("visibleIf")) {
                    choice["visibleIf"] = condition
                }
                if images, let link = members.take("imageLink")?.stringValue { choice["image"] = .string(link) }
                if members.take("enableIf") != nil {
                    note(
                        .notConverted, members.path("enableIf"), "a choice's enableIf",
                        "choices cannot be disabled, only hidden")
                }
                finish(members)
                result.append(.object(choice))
            default:
                note(.notConverted, itemPath, "a choice that is \(item.kindDescription)", "the choice is left out")
            }
        }
        return result
    }

    /// A choice written `"value|text"`: survey-core takes what is before the first `|` as the value
    /// and the rest as its text (`settings.itemValueSeparator`). `nil` without a `|`.
    static func splitChoice(_ string: String) -> (value: String, label: String)? {
        guard let bar = string.firstIndex(of: "|") else { return nil }
        return (String(string[..<bar]), String(string[string.index(after: bar)...]))
    }

    /// The value of the one choice a question with no choices is given here, never shown.
    static let nothingToPick = "no-choices"

    /// A question survey-core shows with no box to fill in (a multiple text without items, a matrix
    /// without columns): it takes no answer, and a required one cannot be passed. Like a choice
    /// question without choices, it gets one choice that is never shown.
    mutating func nothingToAnswer(_ what: String, at path: JSONPath) -> ConvertedKind {
        var empty = ConvertedKind(type: "single-choice")
        empty.options["choices"] = [["value": .string(Self.nothingToPick), "visibleIf": "false"]]
        note(.notConverted, path, what, "survey-core shows nothing to answer either; it takes no answer here")
        return empty
    }

    /// A choice question with no choices (none listed, none fetched or copied: an app fills them in
    /// at run time). survey-core shows it with nothing to pick (its Other and None items aside), so
    /// it takes no answer, and a required one cannot be passed. This engine's choice kinds need a
    /// choice: it gets one that is never shown (`visibleIf` `false`), which no answer can pick.
    mutating func offerNothingWithoutChoices(_ kind: inout ConvertedKind, id: String, path: JSONPath) {
        guard kind.options["choices"]?.arrayValue?.isEmpty == true else { return }
        kind.options["choices"] = [["value": .string(Self.nothingToPick), "visibleIf": "false"]]
        note(
            .notConverted, path, "question '\(id)' without choices",
            "survey-core offers nothing to pick either (the app may fill them in); it takes no answer here")
    }

    /// `allowCustomChoices` of a drop-down or tag box.
    mutating func customChoices(_ members: inout Members, into kind: inout ConvertedKind) {
        if members.take("allowCustomChoices") == .bool(true) { kind.options["allowCustomChoices"] = true }
    }

    /// `choicesMin`/`choicesMax`/`choicesStep` of a drop-down: numeric choices after the listed ones.
    mutating func generatedChoices(_ members: inout Members, into kind: inout ConvertedKind) {
        let low = members.take("choicesMin")?.numberValue
        let high = members.take("choicesMax")?.numberValue
        let step = members.take("choicesStep")?.numberValue ?? 1
        guard let low, let high, high >= low, step > 0, (high - low) / step <= 10_000 else { return }
        var choices = kind.options["choices"]?.arrayValue ?? []
        var value = low
        while value <= high + step / 1e9 {
            choices.append(.number(value))
            value += step
        }
        kind.options["choices"] = .array(choices)
    }

    /// A choice with `choicesVisibleIf`'s `{item}` replaced by its value as its condition, unless it
    /// has one of its own: survey-core then decides the choice by its own `visibleIf` alone.
    static func applyItemCondition(_ condition: String, to choice: JSONValue) -> JSONValue {
        var members: [String: JSONValue] = choice.objectMembers ?? ["value": choice]
        let literal: String
        switch members["value"] {
        case .number(let number)?: literal = JSONValue.format(number: number)
        case .string(let text)?: literal = "'" + text.replacingOccurrences(of: "'", with: "\\'") + "'"
        default: return choice
        }
        // `{item}`, `{Item}`, `{ item }`: survey-core reads names whatever their case.
        let expanded = replacingReferences(in: condition) { reference in
            reference.trimmingCharacters(in: .whitespaces).lowercased() == "item" ? literal : "{" + reference + "}"
        }
        if members["visibleIf"]?.stringValue == nil { members["visibleIf"] = .string(expanded) }
        return .object(members)
    }

    static func sortKey(_ choice: JSONValue) -> String {
        let label = choice["label"].map { label -> String in
            label.stringValue ?? label["default"]?.stringValue ?? label["en"]?.stringValue ?? ""
        }
        return (label ?? choice["value"].map { JSONValue.format(text: $0) } ?? JSONValue.format(text: choice))
            .lowercased()
    }

    // MARK: Rating, matrix, expression, multiple text, file

    mutating func rating(_ members: inout Members) -> ConvertedKind {
        var layout: Set<String> = [
            "rateType", "displayMode", "scaleColorMode", "rateColorMode", "displayRateDescriptionsAsExtremeItems",
            "rateDescriptionLocation", "autoGenerate",
        ]
        let minLabel = text(members.take("minRateDescription"), members.path("minRateDescription"))
        let maxLabel = text(members.take("maxRateDescription"), members.path("maxRateDescription"))
        if let values = members.take("rateValues"), case .array(let list) = values, !list.isEmpty,
            members.members["autoGenerate"] != .bool(true)
        {
            var kind = ConvertedKind(type: "single-choice", options: ["presentation": "rating"])
            kind.options["choices"] = .array(choices(values, path: members.path("rateValues"), images: false))
            layout.formUnion(["rateMin", "rateMax", "rateStep", "rateCount"])
            kind.layout = layout
            if minLabel != nil || maxLabel != nil {
                note(
                    .layoutOnly, members.path("minRateDescription"), "rate descriptions",
                    "custom rate values carry their own texts")
            }
            return kind
        }
        let low = members.take("rateMin")?.numberValue ?? 1
        let step = members.take("rateStep")?.numberValue ?? 1
        var high = members.take("rateMax")?.numberValue ?? 5
        if let count = members.take("rateCount")?.intValue, members.members["rateMax"] == nil, count > 0 {
            high = low + Double(count - 1) * step
        }
        var kind: ConvertedKind
        if low == 0, high == 10, step == 1 {
            kind = ConvertedKind(type: "nps")
        } else if low == 1, step == 1, high >= 2, high <= 10, high == high.rounded(), minLabel == nil, maxLabel == nil {
            kind = ConvertedKind(type: "rating", options: high == 5 ? [:] : ["stars": .number(high)])
        } else {
            kind = ConvertedKind(
                type: "scale", options: ["min": .number(low), "max": .number(high), "step": .number(step)])
        }
        if kind.type != "rating" {
            if let minLabel { kind.options["minLabel"] = minLabel }
            if let maxLabel { kind.options["maxLabel"] = maxLabel }
        }
        kind.layout = layout
        return kind
    }

    /// The values of a scale's options (`min`…`max` by `step`; NPS 0…10) as choices, at most 100.
    static func scaleChoices(_ options: [String: JSONValue]) -> [JSONValue]? {
        let low = options["min"]?.numberValue ?? 0
        let high = options["max"]?.numberValue ?? 10
        let step = options["step"]?.numberValue ?? 1
        guard step > 0, high >= low, (high - low) / step < 100 else { return nil }
        return stride(from: low, through: high + step / 1e6, by: step).map { .number($0) }
    }

    mutating func expressionQuestion(_ members: inout Members) -> ConvertedKind {
        let valueRules = ["defaultValue", "defaultValueExpression", "setValueIf", "setValueExpression", "resetValueIf"]
        if members.members["expression"]?.stringValue?.isEmpty ?? true,
            valueRules.contains(where: { members.members[$0] != nil })
        {
            // Without an expression survey-core's expression question holds what its default and
            // value rules give it (`{"q": 5}`), shown read-only: a read-only text that keeps numbers.
            _ = members.take("expression")
            return ConvertedKind(
                type: "text", options: ["keepNumbers": true], layout: ["format", "displayStyle", "currency"],
                isReadOnly: true)
        }
        // survey-core rounds the stored value to `precision`; `maximumFractionDigits` only formats it.
        var kind = ConvertedKind(
            type: "expression", layout: ["format", "minimumFractionDigits", "maximumFractionDigits", "useGrouping"])
        kind.options["expression"] = expression(members.take("expression"), members.path("expression")) ?? "''"
        if let style = members.take("displayStyle")?.stringValue {
            switch style {
            case "none", "decimal", "percent", "currency": kind.options["displayStyle"] = .string(style)
            default:
                note(.layoutOnly, members.path("displayStyle"), "displayStyle '\(style)'", "shown as a plain value")
            }
        }
        if let currency = members.take("currency")?.stringValue { kind.options["currency"] = .string(currency) }
        if let digits = members.take("precision")?.intValue, digits >= 0, digits <= 20 {
            kind.options["maximumFractionDigits"] = .number(Double(digits))
        }
        return kind
    }

    mutating func file(_ members: inout Members) -> ConvertedKind {
        var kind = ConvertedKind(
            type: "file",
            layout: [
                "waitForUpload", "showPreview", "allowImagesPreview", "imageHeight", "imageWidth",
                "needConfirmRemoveFile", "sourceType", "filePlaceholder", "allowCameraAccess", "photoPlaceholder",
                "fileOrPhotoPlaceholder",
            ])
        // survey-core stores each file's bytes as a data URL unless storeDataAsText is false.
        if members.take("storeDataAsText") != .bool(false) { kind.options["inlineData"] = true }
        let multiple = members.take("allowMultiple") == .bool(true)
        if multiple { kind.options["multiple"] = true }
        if let count = members.take("maxFiles")?.intValue, count > 0 {
            if multiple { kind.options["maxFiles"] = .number(Double(count)) }
        }
        if let size = members.take("maxSize")?.intValue, size > 0 {
            kind.options["maxSizeBytes"] = .number(Double(size))
        }
        if let accepted = members.take("acceptedTypes")?.stringValue, !accepted.isEmpty {
            var formats: [String] = []
            for token in accepted.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) {
                if token.hasPrefix(".") {
                    formats.append(String(token.dropFirst()))
                } else if let known = Vocabulary.mimeFormats[token] {
                    formats += known
                } else {
                    note(
                        .notConverted, members.path("acceptedTypes"), "accepted type '\(token)'",
                        "only file extensions and common MIME types are checked")
                }
            }
            var seen = Set<String>()
            formats = formats.filter { seen.insert($0).inserted }
            if !formats.isEmpty { kind.options["formats"] = .array(formats.map { .string($0) }) }
        }
        return kind
    }
}

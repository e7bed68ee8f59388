import Foundation
import SurveyCore

/// A repeating group (SurveyJS's `paneldynamic`, ODK's `repeat`, Qualtrics' loop & merge): the
/// same items answered once per instance — "for each child, their name and age".
///
/// | Option | Type | Default | Meaning |
/// |---|---|---|---|
/// | `items` | array, required | — | Each `{ "name", "title"?, "description"?, "type"?, "required"?, "requiredIf"?, "visibleIf"?, "expression"?, "options"? }`; names unique. Empty: entries that hold nothing (SurveyJS's dynamic panel without questions). An item with an `expression` is computed in each instance (reading it as `{panel.x}`), never asked; what a respondent sends for it is replaced. |
/// | `count` | integer ≥ 0, or an expression | none | A fixed number of instances (`3`), or an expression giving it (`"{children}"`). |
/// | `eachOf` | step id | none | Loop & merge: one instance per value of that (multiple-choice) answer, `{item}` being the value. |
/// | `minCount`, `maxCount` | integer ≥ 0 | `0`, none | Bounds on the number of instances (with neither `count` nor `eachOf` the respondent adds them). |
/// | `clearHidden` | Boolean | `true` | Whether an item its `visibleIf` hides loses its answer (SurveyJS's dynamic panels), or keeps it (`false`: SurveyJS's dynamic matrices keep a hidden cell's value). A hidden item is never required. |
/// | `startCount` | integer ≥ 0 | `0` | With neither `count` nor `eachOf`: how many instances the repeat starts with when its items have defaults or computed items (SurveyJS's `panelCount`); they hold the defaults and computed values until the respondent answers, who may then add or remove instances. |
/// | `emptyEntriesAnswer` | integer ≥ 1 | none | From this many instances on, instances that hold nothing still answer the question (`required` is met): SurveyJS's dynamic matrix, whose `rowCount` rows are shown. Without it, instances that hold nothing are no answer. |
/// | `instanceVisibleIf` | expression | none | Which instances show (SurveyJS's `templateVisibleIf`), read like an item's `visibleIf` on the instance as given (`{panel.x}`, `{panelIndex}`, the survey's names). In a hidden instance nothing is required or checked and its answers stay as given (its computed items too); `{visiblePanelIndex}` counts the instances shown from 0, and is -1 in a hidden one. |
/// | `itemTitle` | text | none | Each instance's heading: `{panelIndex}` is its position from 1, `{item}` its loop value as the respondent read it (the choice's label), `{panel.x}` its answer to item `x`. |
///
/// Item members: `name` (the key in each instance), `title`, `description` (text shown with the
/// title, as a field's `description`), `type` (`"text"` default; also
/// `"number"`, `"boolean"`, `"date"`, `"rating"`, `"single-choice"`, `"dropdown"`,
/// `"multiple-choice"`, `"tagbox"`, `"scale"`, `"nps"`, `"slider"`, `"image-choice"`, `"ranking"`, `"file"`, and groups: `"repeat"` (a repeat in each instance, whose own
/// items read their instance as `{panel.x}`), `"matrix"`, `"matrix-dropdown"`, `"multiple-text"`; or a
/// kind a loaded plugin adds),
/// `required`, `requiredIf` (read like `visibleIf`: the item is required in an instance while it
/// holds), `validators` (`expression` ones only, checked on Next while the item shows),
/// `visibleIf` (an expression that may read the same instance's answers as `{panel.x}`,
/// its position as `{panelIndex}` (from 0 here, as in survey-core's expressions; from 1 in
/// `itemTitle`; `{visiblePanelIndex}` is the same unless `instanceVisibleIf` hides instances), the loop value as `{item}`, in a repeat inside
/// an instance that instance's answers as `{parentPanel.x}`, and any of the survey's names),
/// `expression` (a computed item: an expression read like `visibleIf`, evaluated in each instance
/// after the respondent's items, in item order, e.g. `"{panel.price} * {panel.units}"`; SurveyJS's
/// expression question in a dynamic panel or expression column), `defaultValue` (the item's answer
/// in a new instance, an answer its kind accepts) or `defaultValueExpression` (an expression read like
/// `visibleIf` whose value is that answer; SurveyJS's template question defaults), `total` or
/// `totalExpression` (SurveyJS's column totals, as a `matrix-dropdown` column's), and `options` (that
/// kind's own options). These expressions may call the survey's functions, a loaded plugin's too. With `count`, `eachOf` or `startCount`, a repeat whose items have defaults or computed items
/// starts answered: its instances hold the defaults and the computed values (as survey-core's panels
/// hold their expression questions' values), followed as what they read changes until the respondent answers.
/// An item with an Other choice takes its text in an instance as the answer, or, as SurveyJS stores
/// it, as the Other choice's value with the text as `<name>-Comment`.
/// An instance the respondent sends without an item that has a `defaultValue` or
/// `defaultValueExpression` gets that default, as a new panel holds it in survey-core until the
/// respondent types over it; an item sent empty (`null`, `""`) stays empty.
///
/// **Answer:** an array with one object per instance, from item name to that item's answer, each
/// checked by its item's kind; an item hidden by its `visibleIf` is dropped from its instance. While
/// it is being filled in, an answer may have fewer instances and leave required items out; on Next
/// it must be complete. One instance can be answered alone as `<id>[k]` (from 0; `k` = the number of
/// instances adds one, `null` removes instance `k`): only that instance is checked, so the cost of an
/// answer does not grow with the number of instances. Errors: `wrongShape` (not an array of objects, an unknown item; `field`
/// `"<index>.<item>"` from 0), the item kind's own codes (same `field`), `missingField` (`field`
/// `"<index>.<item>"`, `arguments.field` the item's title) for a required item left empty, and
/// `tooFewEntries` (`min`) / `tooManyEntries` (`max`) for the number of instances.
///
/// Expressions elsewhere read the answer as an array: `{kids[0].name}`, `sumInArray({kids}, 'age')`,
/// `countInArray({kids}, 'name')`. As an input it is a `repeat` (fields, count or bounds, each
/// instance's title and the fields its conditions hide). In progress ("question k of n") it counts
/// as one question per instance. The summary counts instances per item.
///
/// ```json
/// { "id": "kids", "type": "repeat", "title": "About your children",
///   "options": { "count": "{children}", "itemTitle": "Child {panelIndex}",
///                "items": [ { "name": "name", "required": true },
///                           { "name": "age", "type": "number", "options": { "min": 0, "max": 25 } },
///                           { "name": "school", "visibleIf": "{panel.age} >= 6" } ] } }
/// ```
public struct RepeatType: SummarizesTallies {
    /// One item of the template.
    struct Item: Sendable {
        var name: String
        var title: LocalizedText?
        /// A line shown with the title (SurveyJS's template question `description`).
        var description: LocalizedText?
        var isRequired: Bool
        /// Required in an instance while this holds (read like `visibleIf`), besides `isRequired`.
        var requiredIf: SurveyCore.Expression?
        var visibleIf: SurveyCore.Expression?
        /// A computed item (SurveyJS's expression question in a dynamic panel, an expression column):
        /// its value in each instance, never asked.
        var expression: SurveyCore.Expression?
        var question: ConfiguredQuestion
        /// The `{parentPanel.x}` names a group item reads of its instance (SurveyJS's nested panels).
        var parentNames: [String] = []
        /// Its `expression` validators, checked on Next while the item shows.
        var checks: [Check] = []
        /// Its answer in a new instance (`defaultValue`), already normalised.
        var defaultValue: JSONValue?
        /// The expression whose value is its answer in a new instance (`defaultValueExpression`).
        var defaultExpression: SurveyCore.Expression?

        var hasDefault: Bool { defaultValue != nil || defaultExpression != nil }
        /// The value of its kind's Other choice, if it has one: an entry may give the text as
        /// `<name>-Comment` next to this value (SurveyJS's data shape).
        var otherValue: String?
    }

    /// An item's `expression` validator: it holds, or the instance is refused with `text`.
    struct Check: Sendable {
        var expression: SurveyCore.Expression
        var text: LocalizedText?
    }

    /// The member `x` of SurveyJS's `{parentPanel.x}` (any letter case, as survey-core), or `nil`.
    static func parentMember(_ name: String) -> String? {
        let prefix = "parentpanel."
        guard name.count > prefix.count, name.prefix(prefix.count).lowercased() == prefix else { return nil }
        return String(name.dropFirst(prefix.count))
    }

    /// How many instances there are.
    enum Count: Sendable {
        case open
        case fixed(Int)
        case expression(String)
        case eachOf(String)
    }

    /// The decoded options of a repeat question.
    public struct Options: Sendable {
        var items: [Item]
        var count: Count
        var minimumCount: Int
        var maximumCount: Int?
        var itemTitle: LocalizedText?
        /// Whether hidden items lose their answers.
        var clearsHidden: Bool
        /// The survey names the items' conditions read, in slot order from ``outerSlot``.
        var outerNames: [String]
        /// From how many instances on empty instances are an answer (`nil`: never).
        var emptyEntriesAnswer: Int? = nil
        /// How many instances an open repeat starts with when its items have defaults.
        var startCount = 0
        /// Whether an instance shows (SurveyJS's `templateVisibleIf`): a hidden one is not asked,
        /// its items are neither required nor checked, and its answers stay as they are.
        var instanceVisibleIf: SurveyCore.Expression? = nil
    }

    /// Slots of an item condition: the instance, its position, the loop value, then the survey's names.
    static let panelSlot = 0
    static let indexSlot = 1
    static let itemSlot = 2
    /// `{visiblePanelIndex}`: the position among the instances shown (-1 for a hidden one).
    static let visibleIndexSlot = 3
    static let outerSlot = 4
    /// More instances than this are refused whatever the options say (a count from an answer is clamped).
    static let limit = 10_000

    /// Creates the type (its configuration comes from each question's options).
    public init() {}

    public var typeID: String { "repeat" }
    public var summary: String {
        "A group of questions answered once per instance (a count, an answer, or each chosen value)"
    }

    public func makeOptions(from reader: inout OptionsReader) throws(SurveyError) -> Options {
        final class Names: @unchecked Sendable { var outer: [String] = [] }
        let names = Names()
        let stepID = reader.stepID
        /// The slot of a name an item's (or an instance's) expression reads.
        func slot(_ reference: String) -> Int? {
            switch reference {
            case "panel": return Self.panelSlot
            case "panelIndex": return Self.indexSlot
            case "visiblePanelIndex": return Self.visibleIndexSlot
            case "item": return Self.itemSlot
            case _ where reference.hasPrefix("panel.") || reference.hasPrefix("item."):
                return nil  // resolved as a member of {panel} / {item}
            default:
                if let index = names.outer.firstIndex(of: reference) { return Self.outerSlot + index }
                names.outer.append(reference)
                return Self.outerSlot + names.outer.count - 1
            }
        }
        let items = try NamedOptions.read("items", what: "item", from: &reader, allowsEmpty: true) {
            (item: inout OptionsReader, name: String) throws(SurveyError) -> Item in
            let kind = try PartKinds.read("type", default: "text", from: &item, among: PartKinds.repeatItems).kind
            // The survey's functions (a plugin's too), or the standard ones outside a survey.
            let functions = item.functions ?? .standard
            /// An item's expression (its `visibleIf`, a computed item's `expression`, a validator): it reads
            /// the instance as `{panel.x}`, its position, the loop value and the survey's names.
            func compile(_ source: String) throws(ExpressionCompileError) -> SurveyCore.Expression {
                try SurveyCore.Expression(source, functions: functions) { slot($0) }
            }
            func compile(_ source: String, member: String, in reader: OptionsReader) throws(SurveyError)
                -> SurveyCore.Expression
            {
                do throws(ExpressionCompileError) {
                    return try compile(source)
                } catch {
                    throw reader.error(
                        member, "invalid \(member) \"\(source)\" at \(error.description)", kind: .invalidValue)
                }
            }
            let visibleIf = try item.optionalString("visibleIf").map { source throws(SurveyError) in
                try compile(source, member: "visibleIf", in: item)
            }
            let requiredIf = try item.optionalString("requiredIf").map { source throws(SurveyError) in
                try compile(source, member: "requiredIf", in: item)
            }
            let expression = try item.optionalString("expression").map { source throws(SurveyError) in
                try compile(source, member: "expression", in: item)
            }
            // `expression` validators, which read the instance as the item's visibleIf does.
            let checks =
                try item.optionalArray("validators") { value, path throws(SurveyError) -> Check in
                    var validator = try OptionsReader(value, path: path, stepID: stepID)
                    let type = try validator.string("type")
                    guard type == "expression" else {
                        throw validator.error(
                            "type",
                            "a repeat item takes 'expression' validators only (its kind's options check the rest)",
                            kind: .invalidValue)
                    }
                    let source = try validator.string("expression")
                    let check = Check(
                        expression: try compile(source, member: "expression", in: validator),
                        text: try validator.optionalText("text"))
                    try validator.finish()
                    return check
                } ?? []
            try ColumnTotals.check(&item)
            let question = try kind.configure(
                options: item.value("options") ?? .object([:]), path: item.path.appending("options"), stepID: stepID,
                registry: item.registry, functions: item.functions)
            let defaultExpression = try item.optionalString("defaultValueExpression").map {
                source throws(SurveyError) in
                try compile(source, member: "defaultValueExpression", in: item)
            }
            var defaultValue: JSONValue?
            if let value = item.value("defaultValue") {
                do throws(AnswerError) {
                    defaultValue = try question.normalize(value, in: .english)
                } catch {
                    throw item.error(
                        "defaultValue",
                        "defaultValue \(value) is not an answer item '\(name)' accepts: \(error.message)",
                        kind: .invalidValue)
                }
            }
            if expression != nil, defaultValue != nil || defaultExpression != nil {
                throw item.error(
                    defaultValue != nil ? "defaultValue" : "defaultValueExpression",
                    "item '\(name)' is computed from its expression, so it has no default", kind: .invalidValue)
            }
            var parentNames: [String] = []
            // A group inside an instance reads the survey's names through this repeat's expressions.
            for key in question.expressions.keys.sorted() {
                guard key.hasPrefix("name:") else {
                    throw item.error(
                        "options",
                        "an item's own count or loop cannot come from an expression ('\(key)'): give it a number",
                        kind: .invalidOptions)
                }
                let name = String(key.dropFirst(5))
                // `{parentPanel.x}`: this repeat's instance, given to the group when it is checked.
                if Self.parentMember(name) != nil {
                    parentNames.append(name)
                    continue
                }
                if !names.outer.contains(name) { names.outer.append(name) }
            }
            return Item(
                name: name, title: try item.optionalText("title"), description: try item.optionalText("description"),
                isRequired: try item.bool("required", default: false), requiredIf: requiredIf,
                visibleIf: visibleIf, expression: expression, question: question, parentNames: parentNames,
                checks: checks, defaultValue: defaultValue, defaultExpression: defaultExpression,
                otherValue: question.input(in: .english).choiceInput?.choices.first(where: \.isOther)?.value)
        }.map(\.element)
        var count = Count.open
        if let value = reader.value("count") {
            switch value {
            case .number:
                count = .fixed(try reader.int("count", default: 0, in: 0...Self.limit))
            case .string(let source):
                count = .expression(source)
            default:
                throw reader.error(
                    "count", "'count' must be a number of instances or an expression such as \"{children}\"",
                    kind: .invalidValue)
            }
        }
        if let source = try reader.optionalString("eachOf") {
            guard case .open = count else {
                throw reader.error("eachOf", "give either 'count' or 'eachOf', not both", kind: .invalidOptions)
            }
            count = .eachOf(source)
        }
        let instanceVisibleIf = try reader.optionalString("instanceVisibleIf").map { source throws(SurveyError) in
            do throws(ExpressionCompileError) {
                return try SurveyCore.Expression(source, functions: reader.functions ?? .standard) { slot($0) }
            } catch {
                throw reader.error(
                    "instanceVisibleIf", "invalid instanceVisibleIf \"\(source)\" at \(error.description)",
                    kind: .invalidValue)
            }
        }
        let minimum = try reader.int("minCount", default: 0, in: 0...Self.limit)
        let maximum = try reader.optionalInt("maxCount", in: 0...Self.limit)
        if let maximum, maximum < minimum {
            throw reader.error("maxCount", "'maxCount' must not be less than 'minCount'", kind: .invalidOptions)
        }
        return Options(
            items: items, count: count, minimumCount: minimum, maximumCount: maximum,
            itemTitle: try reader.optionalText("itemTitle"),
            clearsHidden: try reader.bool("clearHidden", default: true),
            outerNames: names.outer,
            emptyEntriesAnswer: try reader.optionalInt("emptyEntriesAnswer", in: 1...Self.limit),
            startCount: try reader.int("startCount", default: 0, in: 0...Self.limit),
            instanceVisibleIf: instanceVisibleIf)
    }

    public func expressions(for options: Options) -> [String: String] {
        var result: [String: String] = [:]
        switch options.count {
        case .expression(let source): result["count"] = source
        case .eachOf(let step):
            result["each"] = "{\(step)}"
            result["eachLabel"] = "displayValues('\(step)')"
        case .open, .fixed: break
        }
        for name in options.outerNames { result["name:" + name] = "{\(name)}" }
        return result
    }

    public func checksAgainOnNext(for options: Options) -> Bool { true }

    /// With `count`, `eachOf` or `startCount`, instances exist before the respondent answers: they
    /// hold their items' defaults and their computed items' values (as survey-core's panels hold
    /// their expression questions' values).
    public func hasDefaultAnswer(for options: Options) -> Bool {
        if case .open = options.count, options.startCount == 0 { return false }
        return options.items.contains { $0.hasDefault || $0.expression != nil }
    }

    /// The instances `count`, `eachOf` or `startCount` gives, holding their items' defaults; `nil`
    /// when they hold nothing.
    public func defaultAnswer(for options: Options, in context: PresentationContext) -> JSONValue? {
        guard let count = count(options, in: context) ?? Optional(options.startCount), count > 0 else { return nil }
        let entries = [JSONValue](repeating: .object([:]), count: count)
        guard
            case .array(let instances) = try? normalize(.array(entries), options: options, in: context),
            instances.contains(where: { $0.objectValue?.isEmpty == false })
        else { return nil }
        return .array(instances)
    }

    /// One question per instance the respondent will see: the count when it is decided, else the
    /// instances answered so far (at least `minCount`).
    public func progressCount(for options: Options, in context: PresentationContext) -> Int? {
        count(options, in: context) ?? max(context.answer?.arrayValue?.count ?? 0, options.minimumCount)
    }

    /// The loop values (for `eachOf`), or `nil`.
    func loopValues(_ options: Options, in context: PresentationContext) -> [JSONValue]? {
        guard case .eachOf = options.count else { return nil }
        switch context.expressionValues["each"] ?? .null {
        case .null: return []
        case .array(let values): return values
        case let value: return value.isEmptyAnswer ? [] : [value]
        }
    }

    /// The number of instances when it is decided, clamped to the bounds.
    func count(_ options: Options, in context: PresentationContext) -> Int? {
        var count: Int
        switch options.count {
        case .open: return nil
        case .fixed(let fixed): count = fixed
        case .eachOf: count = loopValues(options, in: context)?.count ?? 0
        case .expression:
            let value = context.expressionValues["count"]?.numberValue ?? 0
            count = value.isFinite ? Int(max(0, min(value.rounded(.down), Double(Self.limit)))) : 0
        }
        count = max(count, options.minimumCount)
        if let maximum = options.maximumCount { count = min(count, maximum) }
        return count
    }

    /// The slots an item condition of instance `index` reads; `visibleIndex`: its position among
    /// the instances shown (-1: hidden), when ``Options/instanceVisibleIf`` decides it.
    func values(
        _ instance: [String: JSONValue], index: Int, visibleIndex: Int? = nil, options: Options,
        in context: PresentationContext
    ) -> [JSONValue] {
        let loop = loopValues(options, in: context)
        var values: [JSONValue] = [
            // survey-core's `{panelIndex}` counts from 0 in expressions (from 1 in titles).
            .object(instance), .number(Double(index)),
            loop.flatMap { index < $0.count ? $0[index] : nil } ?? .null, .number(Double(visibleIndex ?? index)),
        ]
        for name in options.outerNames { values.append(context.expressionValues["name:" + name] ?? .null) }
        return values
    }

    /// Each instance's position among those ``Options/instanceVisibleIf`` shows, -1 for one it
    /// hides; `nil` without the condition (every instance shows, at its own position). The condition
    /// reads the instance as given (`{panel.x}`), its position and the survey's names.
    func visibleIndexes(
        _ list: [JSONValue], options: Options, in context: PresentationContext, functions: FunctionContext
    ) -> [Int]? {
        guard let condition = options.instanceVisibleIf else { return nil }
        var shown = 0
        return list.enumerated().map { index, element in
            let slots = values(
                element.objectValue ?? [:], index: index, visibleIndex: -1, options: options, in: context)
            guard condition.isTrue(slots, context: functions) else { return -1 }
            shown += 1
            return shown - 1
        }
    }

    /// The items instance `index` hides now.
    func hiddenItems(
        _ instance: [String: JSONValue], index: Int, options: Options, in context: PresentationContext,
        functions: FunctionContext
    ) -> Set<String> {
        var hidden = Set<String>()
        guard options.items.contains(where: { $0.visibleIf != nil }) else { return hidden }
        let slots = values(instance, index: index, options: options, in: context)
        for item in options.items {
            if let condition = item.visibleIf, !condition.isTrue(slots, context: functions) {
                hidden.insert(item.name)
            }
        }
        return hidden
    }

    public func input(for options: Options, in context: PresentationContext) -> InputPrimitive {
        let instances = (context.answer?.arrayValue ?? []).map { $0.objectValue ?? [:] }
        let functions = context.conditionFunctions
        let count = count(options, in: context)
        let loop = loopValues(options, in: context)
        let shown = count ?? max(instances.count, options.minimumCount)
        let shownIndexes = visibleIndexes(
            instances.map { .object($0) }, options: options, in: context, functions: functions)
        let titles = (0..<shown).map { index -> String in
            let instance = index < instances.count ? instances[index] : [:]
            return title(options, index: index, instance: instance, loop: loop, in: context)
        }
        return .repeating(
            RepeatInput(
                fields: options.items.filter { $0.expression == nil }.map { item in
                    CompositeField(
                        name: item.name, label: item.title.map { context.text($0) } ?? item.name,
                        description: item.description.map { context.text($0) }, isRequired: item.isRequired,
                        input: item.question.input(in: context))
                },
                minimumCount: options.minimumCount, maximumCount: count ?? options.maximumCount, count: count,
                instanceTitles: titles,
                hiddenFields: instances.enumerated().map { index, instance in
                    if shownIndexes?[index] == -1 { return options.items.map(\.name) }
                    return options.items.map(\.name).filter(
                        hiddenItems(instance, index: index, options: options, in: context, functions: functions)
                            .contains)
                }))
    }

    /// An instance's heading: `itemTitle` piped, or "#n" (a loop's: the loop value's label).
    func title(
        _ options: Options, index: Int, instance: [String: JSONValue], loop: [JSONValue]?,
        in context: PresentationContext
    ) -> String {
        // `{item}` reads as the respondent saw the choice: its label.
        let labels = context.expressionValues["eachLabel"]?.arrayValue
        let item = loop.flatMap { loop in
            index < loop.count
                ? (labels.flatMap { index < $0.count ? $0[index].stringValue : nil } ?? loop[index].displayText) : nil
        }
        guard let template = options.itemTitle.map({ context.text($0) }) else {
            return item ?? "#\(index + 1)"
        }
        var text = template.replacingOccurrences(of: "{panelIndex}", with: String(index + 1))
        if let item { text = text.replacingOccurrences(of: "{item}", with: item) }
        for item in options.items where text.contains("{panel.\(item.name)}") {
            text = text.replacingOccurrences(of: "{panel.\(item.name)}", with: instance[item.name]?.displayText ?? "")
        }
        return text
    }

    public func normalize(_ answer: JSONValue, options: Options) throws(AnswerError) -> JSONValue {
        try normalize(answer, options: options, in: .english)
    }

    public func normalize(_ answer: JSONValue, options: Options, in context: PresentationContext) throws(AnswerError)
        -> JSONValue
    {
        if answer.isNull { return .null }
        guard case .array(let list) = answer else {
            throw AnswerError.wrongShape(expected: "an array with an object per entry", got: answer)
        }
        // No instance is no answer (`required` says whether one is needed).
        if list.isEmpty { return .null }
        let count = count(options, in: context)
        let maximum = count ?? options.maximumCount
        if let maximum, list.count > maximum {
            throw AnswerError(
                code: "tooManyEntries", message: "Add at most \(maximum) entries.", arguments: ["max": String(maximum)])
        }
        let functions = context.conditionFunctions
        let shown = visibleIndexes(list, options: options, in: context, functions: functions)
        var result: [JSONValue] = []
        result.reserveCapacity(list.count)
        for (index, element) in list.enumerated() {
            result.append(
                try instance(
                    element, index: index, visibleIndex: shown?[index], options: options, in: context,
                    functions: functions))
        }
        if context.isFinalCheck {
            let minimum = count ?? options.minimumCount
            if result.count < minimum {
                throw AnswerError(
                    code: "tooFewEntries", message: "Add at least \(minimum) entries.",
                    arguments: ["min": String(minimum)])
            }
        }
        return result.isEmpty ? .null : .array(result)
    }

    /// One instance checked: its items normalised by their kinds, the items its conditions hide
    /// dropped, and (on the final check) its required items present. Errors name `"<index>.<item>"`.
    /// `visibleIndex`: its position among the instances shown, -1 when ``Options/instanceVisibleIf``
    /// hides it (then nothing in it is required or checked, and nothing is cleared).
    func instance(
        _ element: JSONValue, index: Int, visibleIndex: Int? = nil, options: Options, in context: PresentationContext,
        functions: FunctionContext
    ) throws(AnswerError) -> JSONValue {
        func located(_ error: AnswerError, _ item: String?) -> AnswerError {
            var error = error
            error.field = item.map { "\(index).\($0)" } ?? String(index)
            return error
        }
        let form: FormAnswer
        do {
            form = try FormAnswer(
                element,
                allowed: options.items.map(\.name)
                    + options.items.filter { $0.otherValue != nil }.map { $0.name + "-Comment" },
                describedAs: "an object with the group's items")
        } catch { throw located(error, error.field) }
        var instance: [String: JSONValue] = [:]
        for item in options.items where item.expression == nil {
            guard let given = form.members[item.name] else {
                // Not sent: the item's default (read after the items before it), as a panel starts
                // in survey-core and in every front end here; an item sent empty (`null`) stays empty.
                if item.hasDefault, element.objectValue?[item.name] == nil,
                    let value = defaultValue(of: item, in: instance, index: index, options, context)
                {
                    instance[item.name] = value
                }
                continue
            }
            guard !item.question.isEmpty(given) else { continue }
            var value = given
            // SurveyJS's shape: the Other choice's value, its text as `<name>-Comment`.
            if let other = item.otherValue, let comment = form.members[item.name + "-Comment"]?.stringValue?.trimmed,
                !comment.isEmpty
            {
                switch value {
                case .string(other): value = .string(comment)
                case .array(var list):
                    if let position = list.firstIndex(of: .string(other)) {
                        list[position] = .string(comment)
                        value = .array(list)
                    }
                default: break
                }
            }
            do {
                let normal: JSONValue
                if item.parentNames.isEmpty {
                    normal = try item.question.normalize(value, in: context)
                } else {
                    var inner = context
                    for name in item.parentNames {
                        let member = Self.parentMember(name) ?? name
                        inner.expressionValues["name:" + name] = instance[member] ?? form.members[member] ?? .null
                    }
                    normal = try item.question.normalize(value, in: inner)
                }
                if !item.question.isEmpty(normal) { instance[item.name] = normal }
            } catch { throw located(error, item.name) }
        }
        // Computed items, in order (one may read another before it): what a respondent sent for them
        // is replaced by their value.
        for item in options.items {
            guard let expression = item.expression else { continue }
            let value = expression.evaluate(
                values(instance, index: index, visibleIndex: visibleIndex, options: options, in: context),
                context: functions)
            if value.isEmptyAnswer {
                instance.removeValue(forKey: item.name)
            } else {
                instance[item.name] = value
            }
        }
        if visibleIndex == -1 { return .object(instance) }
        let hidden = hiddenItems(instance, index: index, options: options, in: context, functions: functions)
        if options.clearsHidden {
            for name in hidden { instance[name] = nil }
        }
        if context.isFinalCheck, options.items.contains(where: { !$0.checks.isEmpty }) {
            let slots = values(instance, index: index, options: options, in: context)
            for item in options.items where !hidden.contains(item.name) {
                for check in item.checks where !check.expression.isTrue(slots, context: functions) {
                    let message =
                        check.text.map { context.text($0) }
                        ?? "This answer must meet the condition \(check.expression.source)."
                    throw located(
                        AnswerError(
                            code: "expressionFailed", message: message,
                            arguments: ["expression": check.expression.source]), item.name)
                }
            }
        }
        if context.isFinalCheck {
            let slots =
                options.items.contains { $0.requiredIf != nil }
                ? values(instance, index: index, options: options, in: context) : []
            for item in options.items
            where item.expression == nil && !hidden.contains(item.name) && instance[item.name] == nil
                && (item.isRequired || item.requiredIf?.isTrue(slots, context: functions) == true)
            {
                let label = item.title.map { context.text($0) } ?? item.name
                throw located(
                    AnswerError(code: "missingField", message: "Fill in '\(label)'.", arguments: ["field": label]),
                    item.name)
            }
        }
        return .object(instance)
    }

    /// A change to one instance checks that instance only (removing one checks all again: the later
    /// ones' positions change).
    public func normalize(
        entry: JSONValue, at index: Int, of current: [JSONValue], options: Options, in context: PresentationContext
    ) throws(AnswerError) -> EntryAnswer {
        // Whether an instance shows, and its position among those shown, depend on the others.
        if entry.isNull || context.isFinalCheck || options.instanceVisibleIf != nil {
            return .whole(
                try normalize(.array(current.replacingEntry(at: index, with: entry)), options: options, in: context))
        }
        if index >= current.count, let maximum = count(options, in: context) ?? options.maximumCount,
            current.count >= maximum
        {
            throw AnswerError(
                code: "tooManyEntries", message: "Add at most \(maximum) entries.", arguments: ["max": String(maximum)])
        }
        return .entry(
            try instance(entry, index: index, options: options, in: context, functions: context.conditionFunctions))
    }

    public func isEmpty(_ answer: JSONValue, options: Options) -> Bool {
        let list = answer.arrayValue ?? []
        if let minimum = options.emptyEntriesAnswer, !list.isEmpty, list.count >= minimum { return false }
        return list.allSatisfy(\.isEmptyAnswer)
    }

    public func summarize(_ tally: AnswerTally, options: Options, in context: PresentationContext) -> AnswerSummary {
        let answers = tally.answers
        let lists = answers.compactMap(\.arrayValue).filter { !$0.isEmpty }
        let instances = lists.flatMap { $0 }
        let counts = lists.map { Double($0.count) }.sorted()
        return AnswerSummary(
            answered: lists.count,
            buckets: options.items.map { item in
                let count = instances.filter { $0[item.name] != nil }.count
                return .init(
                    value: item.name, label: item.title.map { context.text($0) } ?? item.name, count: count,
                    percentage: Summaries.percentage(count, of: instances.count))
            },
            mean: InputPrimitive.mean(counts), median: InputPrimitive.median(counts), minimum: counts.first,
            maximum: counts.last)
    }

    /// Item `item`'s default in instance `index` (which holds `instance` so far), normalised by its
    /// kind; `nil` when it has none or its kind refuses the value.
    func defaultValue(
        of item: Item, in instance: [String: JSONValue], index: Int, _ options: Options,
        _ context: PresentationContext
    ) -> JSONValue? {
        let fallback = item.defaultValue
        guard let expression = item.defaultExpression else { return fallback }
        let value = expression.evaluate(
            values(instance, index: index, options: options, in: context), context: context.conditionFunctions)
        guard !value.isEmptyAnswer, let normal = try? item.question.normalize(value, in: context),
            !item.question.isEmpty(normal)
        else { return fallback }
        return normal
    }
}

import Foundation
import SurveyCore

/// An old-style `visible` trigger, applied once every question is converted.
struct VisibleTrigger {
    var source: String
    var condition: String
    var questions: [String]
    var path: JSONPath
}

extension Converter {
    // MARK: Validators, triggers, calculated values

    /// The elements of an array member, or none (with a note) when it is not an array.
    mutating func array(_ json: JSONValue, _ path: JSONPath, _ what: String) -> [JSONValue] {
        guard case .array(let list) = json else {
            note(.notConverted, path, "\(what) that are \(json.kindDescription)", "expected an array")
            return []
        }
        return list
    }

    mutating func validators(_ json: JSONValue, path: JSONPath) -> [JSONValue] {
        let list = array(json, path, "validators")
        var result: [JSONValue] = []
        for (index, item) in list.enumerated() {
            var members = Members(item.objectMembers ?? [:], path: path.appending(index))
            guard var type = members.take("type")?.stringValue else {
                note(.notConverted, members.path, "a validator without a type", "the validator is left out")
                continue
            }
            if type.hasSuffix("validator") { type.removeLast("validator".count) }
            let keys: [String]
            switch type {
            case "expression": keys = ["expression"]
            case "email": keys = []
            case "regex": keys = ["regex", "caseInsensitive"]
            case "numeric": keys = ["minValue", "maxValue"]
            case "text": keys = ["minLength", "maxLength", "allowDigits"]
            case "answercount": keys = ["minCount", "maxCount"]
            default:
                note(.notConverted, members.path, "validator '\(type)'", "not a SurveyJS validator the converter knows")
                continue
            }
            if type == "expression", expression(members.take("expression"), members.path("expression")) == nil {
                // survey-core passes every answer through such a validator.
                note(
                    .notConverted, members.path, "an expression validator without an expression",
                    "it checks nothing (as in SurveyJS); the validator is left out")
                _ = members.take("text")
                _ = members.take("notificationType")
                finish(members)
                continue
            }
            if type == "regex", members.members["regex"]?.stringValue?.isEmpty ?? true {
                // survey-core's regex validator passes every answer when it has no pattern.
                note(
                    .notConverted, members.path, "a regex validator without a regex",
                    "it checks nothing (as in SurveyJS); the validator is left out")
                for key in ["regex", "caseInsensitive", "text", "notificationType"] { _ = members.take(key) }
                finish(members)
                continue
            }
            var validator: [String: JSONValue] = ["type": .string(type)]
            for key in keys + ["notificationType"] {
                if let value = members.take(key) { validator[key] = value }
            }
            if let message = text(members.take("text"), members.path("text")) { validator["text"] = message }
            finish(members)
            result.append(.object(validator))
        }
        return result
    }

    mutating func triggers(_ json: JSONValue, path: JSONPath) -> [JSONValue] {
        let list = array(json, path, "triggers")
        var result: [JSONValue] = []
        for (index, item) in list.enumerated() {
            var members = Members(item.objectMembers ?? [:], path: path.appending(index))
            let type = members.take("type")?.stringValue ?? ""
            let sourceName = members.members["expression"] == nil ? members.members["name"]?.stringValue : nil
            // survey-core builds an old-style trigger's condition from its name, operator and value.
            let oldStyle = Self.triggerCondition(
                name: members.take("name"), operator: members.take("operator"), value: members.take("value"))
            guard let condition = expression(members.take("expression"), members.path("expression")) ?? oldStyle
            else {
                note(.notConverted, members.path, "a \(type) trigger without an expression", "the trigger is left out")
                continue
            }
            var trigger: [String: JSONValue] = ["if": condition]
            let kind = type.hasSuffix("trigger") ? String(type.dropLast("trigger".count)) : type
            if kind == "visible", let sourceName, let condition = condition.stringValue,
                let questions = members.members["questions"]?.arrayValue, members.members["pages"] == nil
            {
                _ = members.take("questions")
                visibleTriggers.append(
                    VisibleTrigger(
                        source: sourceName.trimmingCharacters(in: .whitespaces), condition: condition,
                        questions: questions.compactMap(\.stringValue), path: members.path))
                finish(members)
                continue
            }
            switch kind {
            case "complete":
                trigger["type"] = "complete"
            case "skip":
                trigger["type"] = "skip"
                trigger["goto"] = members.take("gotoName")
                // survey-core's skip focuses a question (`getQuestionByName`): a page's name finds
                // none, and the trigger does nothing there.
                if let target = trigger["goto"]?.stringValue, pageNames.contains(target), !usedIDs.contains(target) {
                    note(
                        .notConverted, members.path("gotoName"), "a skip trigger to page '\(target)'",
                        "survey-core's skip goes to a question only, and does nothing for a page's name; left out")
                    continue
                }
            case "setvalue":
                trigger["type"] = "setvalue"
                trigger["target"] = members.take("setToName")
                trigger["value"] = members.members["setValue"] ?? .null
                _ = members.take("setValue")
                if members.take("isVariable") == .bool(true) {
                    note(
                        .notConverted, members.path("isVariable"), "a setvalue trigger on a variable",
                        "only questions can be set; the trigger is left out")
                    continue
                }
            case "copyvalue":
                trigger["type"] = "copyvalue"
                trigger["target"] = members.take("setToName")
                trigger["from"] = members.take("fromName")
            case "runexpression":
                trigger["type"] = "runexpression"
                trigger["run"] = members.take("runExpression")
                if let target = members.take("setToName") { trigger["target"] = target }
            default:
                note(
                    .notConverted, members.path, "a '\(type)' trigger",
                    "only complete, skip, setvalue, copyvalue and runexpression triggers are supported")
                continue
            }
            let needed: [String] =
                switch trigger["type"]?.stringValue {
                case "skip": ["goto"]
                case "setvalue": ["target"]
                case "copyvalue": ["target", "from"]
                case "runexpression": ["run"]
                default: []
                }
            if needed.contains(where: { trigger[$0] == nil }) {
                note(.notConverted, members.path, "a \(type) trigger missing a member", "the trigger is left out")
                continue
            }
            origins[JSONPath.root.appending("triggers").appending(result.count)] = members.path
            finish(members)
            result.append(.object(trigger))
        }
        return result
    }

    /// Old-style `visible` triggers (`name`, `operator`, `value`, `questions`): survey-core shows the
    /// listed questions until the trigger's question is answered, then whenever the condition holds;
    /// each becomes the `visibleIf` `{name} empty or (condition)` of a question that has none and no
    /// other such trigger (`condition` alone for a question hidden at first, `visible: false`).
    mutating func applyVisibleTriggers(to steps: inout [JSONValue]) {
        guard !visibleTriggers.isEmpty else { return }
        var targets: [String: [VisibleTrigger]] = [:]
        for trigger in visibleTriggers {
            for question in trigger.questions {
                targets[question.trimmingCharacters(in: .whitespaces), default: []].append(trigger)
            }
        }
        applyVisibleTriggers(to: &steps, targets: &targets)
        for (question, triggers) in targets.sorted(by: { $0.key < $1.key }) {
            for trigger in triggers {
                note(
                    .notConverted, trigger.path.appending("questions"), "a visible trigger on '\(question)'",
                    "no question of that name; left out")
            }
        }
        visibleTriggers = []
    }

    private mutating func applyVisibleTriggers(to steps: inout [JSONValue], targets: inout [String: [VisibleTrigger]]) {
        for index in steps.indices {
            guard case .object(var step) = steps[index] else { continue }
            if case .array(var inner)? = step["steps"] {
                applyVisibleTriggers(to: &inner, targets: &targets)
                step["steps"] = .array(inner)
                steps[index] = .object(step)
            }
            guard step["type"] != "page", let id = step["id"]?.stringValue,
                let triggers = targets.removeValue(forKey: id)
            else { continue }
            if triggers.count == 1, let trigger = triggers.first, step["visibleIf"] == nil {
                // A question hidden at first (`visible: false`) shows only once the trigger shows it.
                let hidden = step["enabled"] == .bool(false)
                step["enabled"] = nil
                step["visibleIf"] = .string(
                    hidden ? trigger.condition : "{\(trigger.source)} empty or (\(trigger.condition))")
                steps[index] = .object(step)
            } else {
                for trigger in triggers {
                    note(
                        .notConverted, trigger.path, "a visible trigger on '\(id)'",
                        "it has a visibleIf or another visible trigger (survey-core follows whichever ran last); left out"
                    )
                }
            }
        }
    }

    /// The condition survey-core 3.0.4 builds for a trigger given as `name`, `operator` and `value`
    /// (no `expression`): `{name} operator value`, the value quoted unless it is a number or a
    /// Boolean; no condition when the name is missing, or the value is for an operator that needs one.
    /// An operator survey-core does not know (`anyof`) is its default, `equal`.
    static func triggerCondition(name: JSONValue?, operator: JSONValue?, value: JSONValue?) -> JSONValue? {
        guard let name = name?.stringValue, !name.isEmpty else { return nil }
        let known = [
            "empty", "notempty", "equal", "notequal", "contains", "notcontains", "greater", "less", "greaterorequal",
            "lessorequal",
        ]
        let given = `operator`?.stringValue?.lowercased() ?? "equal"
        let symbol = known.contains(given) ? given : "equal"
        let needsValue = symbol != "empty" && symbol != "notempty"
        let operand: String
        switch value {
        case nil, .null?:
            guard !needsValue else { return nil }
            operand = "undefined"
        case .number(let number)?:
            operand = JSONValue.format(number: number)
        case .bool(let flag)?:
            operand = flag ? "true" : "false"
        case .string(let text)?:
            if text.isEmpty {
                guard !needsValue else { return nil }
                operand = "''"
            } else if let number = JSONValue.decimalNumber(text.trimmingCharacters(in: .whitespaces)),
                text.count <= 15 || !text.allSatisfy({ $0.isASCII && $0.isNumber })
            {
                operand = JSONValue.format(number: number)
            } else if ["true", "false"].contains(text.lowercased()) {
                operand = text.lowercased()
            } else {
                operand = "'" + text + "'"
            }
        case .array(let list)?:
            // survey-core writes a list as its elements joined by commas, quoted.
            operand = "'" + list.map { JSONValue.format(text: $0) }.joined(separator: ",") + "'"
        case .object?:
            return nil
        }
        // Only the operand matters for empty and notempty: survey-core's `empty undefined` reads as `empty`.
        return .string("{\(name)} \(symbol)" + (needsValue ? " " + operand : ""))
    }

    mutating func calculatedValues(_ json: JSONValue, path: JSONPath) -> [JSONValue] {
        let list = array(json, path, "calculatedValues")
        var result: [JSONValue] = []
        for (index, item) in list.enumerated() {
            var members = Members(item.objectMembers ?? [:], path: path.appending(index))
            guard let name = name(members.take("name")),
                let value = expression(members.take("expression"), members.path("expression"))
            else {
                note(
                    .notConverted, members.path, "a calculated value without a name and an expression", "it is left out"
                )
                continue
            }
            if let text = value.stringValue?.trimmingCharacters(in: .whitespaces).lowercased(),
                text == "{\(name.lowercased())}"
            {
                // survey-core computes it from its own value: undefined until the app sets it.
                note(
                    .hostVariable, members.path("expression"), "calculated value '\(name)' = {\(name)}",
                    "it reads only itself, so survey-core gives it no value unless the app sets it; here it is a value the host sets (--var \(name)=VALUE), empty until then"
                )
                _ = members.take("includeIntoResult")
                finish(members)
                continue
            }
            var calculated: [String: JSONValue] = ["name": .string(name), "expression": value]
            if members.take("includeIntoResult") == .bool(true) { calculated["includeIntoResult"] = true }
            origins[JSONPath.root.appending("calculatedValues").appending(result.count)] = members.path
            finish(members)
            result.append(.object(calculated))
        }
        return result
    }
}

extension Converter {
    /// `setvalue` triggers aimed at a name no question has: survey-core writes the value into its
    /// data under that name (`survey.setValue`), where expressions read it and the results keep it.
    /// Each such name gets a question that is never shown, last on the first page, of the type the
    /// values given to it need (text, number or Boolean), and the data shape keeps its value whether
    /// it is shown or not (``SurveyJSDataShape``). A dotted name (`q.member`) that is no question's
    /// sets nothing in survey-core (`setTriggerValue` writes only plain names): such triggers are left out.
    mutating func addDataKeys(for triggers: inout [JSONValue], to steps: inout [JSONValue]) {
        var taken = Set<String>()
        func collect(_ list: [JSONValue]) {
            for step in list {
                // Pages too: they share the namespace of ids here.
                if let id = step["id"]?.stringValue { taken.insert(id.lowercased()) }
                collect(step["steps"]?.arrayValue ?? [])
            }
        }
        collect(steps)
        dropDottedTargets(of: &triggers, taken: taken)
        var kinds: [(name: String, values: [JSONValue], path: JSONPath)] = []
        for (index, trigger) in triggers.enumerated() where trigger["type"] == "setvalue" {
            guard let target = trigger["target"]?.stringValue, !taken.contains(target.lowercased()) else { continue }
            let value = trigger["value"] ?? .null
            if let position = kinds.firstIndex(where: { $0.name == target }) {
                kinds[position].values.append(value)
            } else {
                let origin = origins[JSONPath.root.appending("triggers").appending(index)] ?? .root
                kinds.append((target, [value], origin))
            }
        }
        guard !kinds.isEmpty, case .object(var page)? = steps.first, page["type"] == "page" else { return }
        var inner = page["steps"]?.arrayValue ?? []
        for (name, values, path) in kinds {
            let given = values.filter { !$0.isEmptyAnswer }
            let type: String
            if given.allSatisfy({ $0.stringValue != nil }) {
                type = "text"
            } else if given.allSatisfy({ $0.numberValue != nil }) {
                type = "number"
            } else if given.allSatisfy({ $0.boolValue != nil }) {
                type = "boolean"
            } else {
                continue
            }
            inner.append(["id": .string(name), "type": .string(type), "visibleIf": "false"])
            dataShape.dataKeys.append(name)
            note(
                .renamed, path.appending("setToName"), "'\(name)'",
                "no question has this name: survey-core keeps the value in its data, and so does this engine, in a question never shown"
            )
        }
        page["steps"] = .array(inner)
        steps[0] = .object(page)
    }
}

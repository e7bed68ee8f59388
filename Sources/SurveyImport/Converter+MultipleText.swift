import SurveyCore

extension Converter {
    /// `multipletext` → `multiple-text`: its items with their kinds and checks (a `regex` validator
    /// as the item's `pattern`, `numeric`/`text`/`email` ones as its bounds, `expression` ones as the
    /// question's validators).
    mutating func multipleText(_ members: inout Members) -> ConvertedKind {
        // survey-core keeps a number given to an item (a default, the host's data) as a number.
        var kind = ConvertedKind(
            type: "multiple-text", options: ["keepNumbers": true],
            layout: ["colCount", "itemSize", "itemTitleWidth", "inputSize"])
        guard case .array(let list)? = members.take("items") else { return kind }
        var items: [JSONValue] = []
        for (index, json) in list.enumerated() {
            let path = members.path("items").appending(index)
            if case .string(let name) = json {
                items.append(["name": .string(name)])
                continue
            }
            guard let object = json.objectMembers else {
                note(.notConverted, path, "an item that is \(json.kindDescription)", "the item is left out")
                continue
            }
            var item = Members(object, path: path)
            guard let name = elementName(item.take("name")) else {
                note(.notConverted, path, "an item without a name", "the item is left out")
                continue
            }
            var result: [String: JSONValue] = ["name": .string(name)]
            if let title = text(item.take("title"), item.path("title")) { result["title"] = title }
            if let hint = text(item.take("placeholder"), item.path("placeholder")) { result["placeholder"] = hint }
            if item.take("isRequired") == .bool(true) { result["required"] = true }
            let inputType = item.take("inputType")?.stringValue ?? "text"
            switch inputType {
            case "text", "number", "email", "tel": result["inputType"] = .string(inputType)
            default:
                note(.notConverted, item.path("inputType"), "inputType '\(inputType)' of an item", "asked as free text")
            }
            if let length = item.take("maxLength")?.intValue, length > 0, inputType != "number" {
                result["maxLength"] = .number(Double(length))
            }
            for key in ["min", "max"] {
                if let value = item.take(key)?.numberValue, inputType == "number" { result[key] = .number(value) }
            }
            if case .array(let validators)? = item.take("validators") {
                for (position, validator) in validators.enumerated() {
                    let validatorPath = item.path("validators").appending(position)
                    var checks = Members(validator.objectMembers ?? [:], path: validatorPath)
                    let type = checks.take("type")?.stringValue?.lowercased()
                    switch type.map({ $0.hasSuffix("validator") ? String($0.dropLast(9)) : $0 }) {
                    case "regex" where inputType != "number" && result["pattern"] == nil:
                        guard let regex = checks.take("regex")?.stringValue, !regex.isEmpty else {
                            // survey-core's regex validator passes every answer when it has no pattern.
                            _ = checks.take("caseInsensitive")
                            break
                        }
                        result["pattern"] = .string(regex)
                        if checks.take("caseInsensitive") == .bool(true) { result["patternIgnoresCase"] = true }
                    case "numeric" where inputType == "number":
                        if let low = checks.take("minValue")?.numberValue { result["min"] = .number(low) }
                        if let high = checks.take("maxValue")?.numberValue { result["max"] = .number(high) }
                    case "text" where inputType != "number":
                        if let low = checks.take("minLength")?.intValue, low > 0 {
                            result["minLength"] = .number(Double(low))
                        }
                        if let high = checks.take("maxLength")?.intValue, high > 0 {
                            result["maxLength"] = .number(Double(high))
                        }
                    case "email" where inputType == "text" || inputType == "email":
                        result["inputType"] = "email"
                    case "expression", "expressionvalidator":
                        if let check = itemExpressionCheck(&checks) { kind.validators.append(check) }
                    default:
                        note(
                            .notConverted, validatorPath, "a validator of an item",
                            "items take numeric, text and email checks only")
                        continue
                    }
                    _ = checks.take("text")
                    finish(checks)
                }
            }
            finish(item, layout: ["size", "inputMask", "maskType", "maskSettings"])
            items.append(.object(result))
        }
        kind.options["items"] = .array(mergedItems(items, source: list, path: members.path("items")))
        // survey-core checks a required item even when nothing is typed: the question does not pass empty.
        if items.contains(where: { $0["required"] == .bool(true) }) { kind.requiresAnswer = true }
        return kind
    }
}

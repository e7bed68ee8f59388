import SurveyCore

extension Converter {
    /// Members of choice questions, which survey-core ignores on a question without choices.
    static let choiceMembers: Set<String> = [
        "choices", "choicesOrder", "hasSelectAll", "showSelectAllItem", "selectAllText", "hasNone", "showNoneItem",
        "noneText", "hasOther", "showOtherItem", "otherText", "colCount",
    ]

    /// Every `name` of an element (page, panel, question) in a SurveyJS survey, at any depth, the
    /// names of the elements that hold a value (questions), and the names only pages have.
    /// An element of a type `creates` does not accept is not created by survey-core: it takes no name.
    static func elementNames(in json: JSONValue, creates: (String) -> Bool = { _ in true }) -> (
        all: Set<String>, values: Set<String>, pagesOnly: Set<String>
    ) {
        var names: Set<String> = []
        var values: Set<String> = []
        var pages: Set<String> = []
        var others: Set<String> = []
        func visit(_ value: JSONValue, isPage: Bool) {
            guard case .object(let members) = value else { return }
            if let written = members["name"]?.stringValue, isPage || members["type"]?.stringValue.map(creates) == true {
                let type = members["type"]?.stringValue?.lowercased()
                let isQuestion = !isPage && type.map { !holdsNoValue($0) } == true
                let name = surveyCoreName(written, isQuestion: isQuestion)
                names.insert(name)
                if isPage { pages.insert(name) } else { others.insert(name) }
                if isQuestion { values.insert(name) }
            }
            for key in ["pages", "elements", "questions", "templateElements"] {
                for element in members[key]?.arrayValue ?? [] { visit(element, isPage: key == "pages") }
            }
        }
        visit(json, isPage: true)
        return (names, values, pages.subtracting(others))
    }

    /// Whether an element of the SurveyJS `type` is made: one survey-core creates (it matches types
    /// case-insensitively), a custom one a loaded plugin's kind takes, or one left out with a reason
    /// of its own (`custom`, `composite`).
    func createsElement(ofType type: String) -> Bool {
        Vocabulary.surveyCoreElementTypes.contains(type.lowercased()) || pluginKinds.contains(type)
            || Vocabulary.unconvertedTypes[type] != nil
    }

    /// The note for a second element named `name`, which is `renamed` here and keeps its own answer.
    mutating func noteSecondElement(_ name: String, renamed: String, at path: JSONPath) {
        note(
            .notConverted, path, "a second element named '\(name)'",
            "it is named '\(renamed)' here, and its answer is stored under that name (survey-core gives both one value)"
        )
    }

    /// Question types whose second question of a name starts with the first one's answer (a
    /// `defaultValueExpression` reading it), as survey-core shows one value in both.
    static let showsSharedValue: Set<String> = [
        "text", "comment", "radiogroup", "dropdown", "checkbox", "tagbox", "boolean", "rating",
    ]

    /// The value a SurveyJS question type holds, for a second question of a name: survey-core gives
    /// both questions one value, so they share it here when they hold the same kind of value (a
    /// radiogroup and a dropdown both hold one choice).
    static func sharedValueClass(ofType type: String) -> String? {
        switch type {
        case "radiogroup", "dropdown", "buttongroup": return "one choice"
        case "checkbox", "tagbox": return "choices"
        case "text", "comment": return "text"
        case "boolean", "rating": return type
        default: return nil
        }
    }

    /// The value a converted kind holds, as ``sharedValueClass(ofType:)`` (a numeric `text` is a
    /// `number`, which a plain text does not share).
    static func sharedValueClass(ofKind kind: String) -> String {
        switch kind {
        case "single-choice", "dropdown": return "one choice"
        case "multiple-choice", "tagbox": return "choices"
        default: return kind
        }
    }

    /// A multiple text's items with one name: survey-core shows one value in both boxes (the key of
    /// the answer is the name). The first item stays and is required when either is; the others are
    /// left out with a note. `source` is the SurveyJS `items` list at `path`.
    mutating func mergedItems(_ items: [JSONValue], source: [JSONValue], path: JSONPath) -> [JSONValue] {
        var result: [JSONValue] = []
        var first: [String: Int] = [:]
        var seen: [String: Int] = [:]
        for item in items {
            guard let name = item["name"]?.stringValue else {
                result.append(item)
                continue
            }
            seen[name, default: 0] += 1
            guard let index = first[name] else {
                first[name] = result.count
                result.append(item)
                continue
            }
            if item["required"] == .bool(true), case .object(var kept) = result[index] {
                kept["required"] = true
                result[index] = .object(kept)
            }
            // The SurveyJS item this one came from: the name's next occurrence in the list.
            var count = 0
            let at = source.firstIndex { json in
                guard (json["name"] ?? json).stringValue == name else { return false }
                count += 1
                return count == seen[name]
            }
            note(
                .renamed, at.map { path.appending($0).appending("name") } ?? path, "a second item named '\(name)'",
                "survey-core shows one value in both boxes; it is asked once, by the first (required when either is)")
        }
        return result
    }
}

extension Converter {
    /// A multiple text's own validators as survey-core runs them on its value, an object of the
    /// items' texts: a `numeric` or `email` validator refuses every answer that is not empty (an
    /// object is no number and no address), so it becomes an expression validator accepting only no
    /// answer; `text` and `answercount` validators check nothing on an object and are left out.
    mutating func multipleTextValidators(_ validators: [JSONValue], id: String, path: JSONPath) -> [JSONValue] {
        validators.compactMap { validator in
            let type = validator["type"]?.stringValue ?? ""
            switch type {
            case "numeric", "email":
                let text = type == "numeric" ? "The value should be numeric." : "Please enter a valid e-mail address."
                return [
                    "type": "expression", "expression": .string("{\(id)} empty"),
                    "text": validator["text"] ?? .string(text),
                ]
            case "text", "answercount":
                note(
                    .notConverted, path, "a '\(type)' validator of multiple text '\(id)'",
                    "survey-core applies it to the whole answer, an object, where it checks nothing; left out")
                return nil
            default: return validator
            }
        }
    }
}

extension Converter {
    /// A date's bounds given by expressions (`minValueExpression: "today()"`): survey-core computes
    /// them and refuses a date before the minimum or after the maximum, on Next; kept in
    /// ``ConvertedKind/boundExpressions`` and checked by ``boundValidators(_:reading:)``.
    mutating func dateBounds(_ members: inout Members, into kind: inout ConvertedKind) {
        for (key, bound) in [("minValueExpression", "min"), ("maxValueExpression", "max")] {
            guard let source = expression(members.take(key), members.path(key))?.stringValue else { continue }
            kind.boundExpressions[bound] = source
        }
    }

    /// The expression validators checking `kind`'s bounds given by expressions on the value
    /// `reference` reads (`{id}`, or `{panel.name}` in a dynamic panel): an empty answer passes, as
    /// survey-core checks a bound only on an answer.
    static func boundValidators(_ kind: ConvertedKind, reading reference: String) -> [JSONValue] {
        kind.boundExpressions.sorted { $0.key > $1.key }.map { bound, source in
            let (test, text) =
                bound == "min"
                ? (">=", "The value should not be less than its minimum")
                : ("<=", "The value should not be greater than its maximum")
            return [
                "type": "expression", "expression": .string("\(reference) empty or \(reference) \(test) (\(source))"),
                "text": .string(text),
            ]
        }
    }
}

extension Converter {
    /// An id for a question named `""`: survey-core keeps that name (the next unnamed question is
    /// still `question1` there) and keys its answer `""`, as the data shape does (`dataNames`).
    mutating func emptyNamed(at path: JSONPath) -> String {
        let id = freeName("empty-name-")
        dataShape.dataNames[id] = ""
        note(
            .renamed, path, "a question named ''",
            "survey-core keeps the name and keys its answer so; it is '\(id)' here, and '' in survey-core's data shape")
        return id
    }
}

extension Converter {
    /// The page a converted element at `ours` is on (`$.steps[k]`).
    static func page(of ours: JSONPath) -> String {
        let text = ours.description
        guard let close = text.firstIndex(of: "]") else { return text }
        return String(text[...close])
    }

    /// `prefix` followed by the smallest number from 1 that no element of the survey is named
    /// (survey-core's names for unnamed elements: `question1`, `panel2`).
    mutating func freeName(_ prefix: String) -> String {
        let name = Self.firstFree(prefix, bare: false, from: 1) { [takenNames, usedIDs] in
            takenNames.contains($0) || usedIDs.contains($0)
        }
        takenNames.insert(name)
        return name
    }

    /// The first of `stem` (when `bare`), then `stem` followed by `from`, `from + 1`, … that
    /// `isTaken` does not refuse.
    static func firstFree(_ stem: String, bare: Bool, from first: Int, isTaken: (String) -> Bool) -> String {
        if bare, !isTaken(stem) { return stem }
        var number = first
        while isTaken("\(stem)\(number)") { number += 1 }
        return "\(stem)\(number)"
    }
}

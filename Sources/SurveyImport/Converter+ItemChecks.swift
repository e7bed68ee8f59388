import SurveyCore

// Checks survey-core runs inside a question's parts, kept here on the question itself.

extension Converter {
    /// An `expression` validator of a multiple text's item (`checks`, its members after `type`):
    /// survey-core checks it when the page is checked, whatever the item holds (an empty item too),
    /// reading the survey's names (`{question.item}`) — what a question's own expression validator
    /// does here, so it becomes one of the question's. `nil` (with a note) without an expression.
    mutating func itemExpressionCheck(_ checks: inout Members) -> JSONValue? {
        guard let source = expression(checks.take("expression"), checks.path("expression")) else {
            note(
                .notConverted, checks.path, "an expression validator without an expression",
                "it checks nothing (as in SurveyJS); the validator is left out")
            _ = checks.take("notificationType")
            return nil
        }
        var validator: [String: JSONValue] = ["type": "expression", "expression": source]
        if let message = text(checks.take("text"), checks.path("text")) { validator["text"] = message }
        if let severity = checks.take("notificationType") { validator["notificationType"] = severity }
        return .object(validator)
    }
}

extension Converter {
    /// A dynamic matrix shows its `rowCount` rows (`rows`), and survey-core checks a required column
    /// in each of them, empty or not: the page does not pass with fewer rows given (or none), unless
    /// the respondent removes rows. Here a matrix with a required column (one always shown and
    /// without a default) takes at least that many entries, and an answer.
    mutating func requireShownRows(_ rows: Int, in kind: inout ConvertedKind) {
        guard rows > 0, kind.options["count"] == nil, let items = kind.options["items"]?.arrayValue,
            items.contains(where: { item in
                item["required"] == .bool(true) && item["visibleIf"] == nil && item["expression"] == nil
                    && item["defaultValue"] == nil && item["defaultValueExpression"] == nil
            })
        else { return }
        let limited = min(rows, kind.options["maxCount"]?.intValue ?? rows, 10_000)
        kind.options["minCount"] = .number(Double(max(limited, kind.options["minCount"]?.intValue ?? 0)))
        kind.requiresAnswer = true
    }
}

extension Converter {
    /// The default of a dynamic panel nested in another's template: survey-core starts it, in each
    /// panel of the outer one, with its `panelCount` panels holding its template's defaults
    /// (`defaultPanelValue`, the questions' `defaultValue`s); `nil` when those panels hold nothing.
    static func nestedPanelsDefault(_ kind: ConvertedKind) -> JSONValue? {
        guard kind.type == "repeat", let count = kind.emptyEntries, count > 0, !kind.entryDefaults.isEmpty else {
            return nil
        }
        return .array(Array(repeating: .object(kind.entryDefaults), count: min(count, 10_000)))
    }
}

extension Converter {
    /// A dropdown matrix checks a required column in every row it shows, answered or not: with such
    /// a column (always shown, without a default) and a row that always shows, survey-core refuses
    /// the matrix empty, so here it is required.
    func requireCheckedCells(_ kind: inout ConvertedKind) {
        let rows = kind.options["rows"]?.arrayValue ?? []
        let columns = kind.options["columns"]?.arrayValue ?? []
        let checked = columns.contains { column in
            column["required"] == .bool(true) && column["visibleIf"] == nil
                && kind.cellDefaults[column["name"]?.stringValue ?? ""] == nil
        }
        if checked, rows.contains(where: { $0["visibleIf"] == nil }) { kind.requiresAnswer = true }
    }
}

extension Converter {
    /// A range slider (`sliderType: "range"`): survey-core stores `[low, high]`. Here it is a multiple
    /// text of two numbers, `from` and `to`, within `min` and `max` (0–100 by default), and the data
    /// shape writes its answer as survey-core's pair (and reads a pair given as the answer). The
    /// thumbs' `step` is not checked; `minRangeLength`/`maxRangeLength` are checked on Next.
    mutating func rangeSlider(_ members: inout Members, id: String) -> ConvertedKind {
        var kind = ConvertedKind(
            type: "multiple-text", options: ["keepNumbers": true],
            layout: [
                "step", "allowSwap", "allowDragRange", "tooltipVisibility", "tooltipFormat", "labelCount",
                "labelFormat", "showLabels", "autoGenerate", "customLabels", "labelFormat",
            ])
        kind.isRange = true
        var bounds: [JSONValue] = []
        for (key, fallback) in [("min", 0.0), ("max", 100.0)] {
            let value = members.take(key)
            if let value, value.numberValue == nil {
                note(.notConverted, members.path(key), "\(key) \(describe(value))", "expected a number")
            }
            bounds.append(.number(value?.numberValue ?? fallback))
        }
        kind.options["items"] = .array(
            [("from", "From"), ("to", "To")].map { name, title in
                [
                    "name": .string(name), "title": .string(title), "inputType": "number", "min": bounds[0],
                    "max": bounds[1],
                ]
            })
        for (key, comparison) in [("minRangeLength", ">="), ("maxRangeLength", "<=")] {
            guard let length = members.take(key)?.numberValue else { continue }
            kind.validators.append(
                [
                    "type": "expression",
                    "expression": .string(
                        "{\(id).to} - {\(id).from} \(comparison) \(JSONValue.format(text: .number(length)))"),
                ])
        }
        dataShape.ranges.append(id)
        return kind
    }
}

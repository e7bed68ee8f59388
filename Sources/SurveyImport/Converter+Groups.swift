import SurveyCore

// SurveyJS's matrices and repeating groups: `matrix`, `matrixdropdown`, and `paneldynamic` /
// `matrixdynamic` as a `repeat`.

/// survey-core's column totals (`totalType`) and the function that computes each over the rows.
extension Converter {
    static let totalFunctions: [String: String] = [
        "sum": "sumInArray", "count": "countInArray", "avg": "avgInArray", "min": "minInArray", "max": "maxInArray",
    ]
}

extension Converter {
    /// A column's `totalExpression` (which survey-core prefers to its `totalType`): recorded for the
    /// data shape, which stores the total in `<name>-total` as survey-core does.
    mutating func totalExpression(_ column: inout Members, name: String, into kind: inout ConvertedKind) {
        guard let source = column.take("totalExpression")?.stringValue,
            source.contains(where: { !$0.isWhitespace })
        else { return }
        kind.totals[name] = String(SurveyJSDataShape.totalExpressionMark) + source
    }
}

/// The cell kinds that pick among choices.
private let partChoiceKinds: Set<String> = ["dropdown", "single-choice", "multiple-choice", "tagbox"]

extension Converter {
    /// A matrix's rows as survey-core keys their answers: a row that is an object with neither `value`
    /// nor `text` (written for another library) has the object as its value, which JavaScript keys
    /// as the text `[object Object]`.
    static func rowsAsKeyed(_ rows: JSONValue?) -> JSONValue? {
        guard case .array(let list)? = rows else { return rows }
        return .array(
            list.map { row in
                guard case .object(let members) = row, members["value"] == nil, members["text"] == nil else {
                    return row
                }
                return ["value": "[object Object]"]
            })
    }

    mutating func matrix(_ members: inout Members) -> ConvertedKind {
        var kind = ConvertedKind(
            type: "matrix",
            layout: [
                "alternateRows", "columnMinWidth", "rowTitleWidth", "showHeader", "verticalAlign", "cells",
                "isAllRowRequired",
            ])
        for key in ["rows", "columns"] {
            let written = members.take(key)
            let list = choices(
                key == "rows" ? Self.rowsAsKeyed(written) : written, path: members.path(key), images: false)
            let shared = key == "rows" ? "rowsVisibleIf" : "columnsVisibleIf"
            kind.options[key] = .array(joiningItemCondition(members.take(shared), at: members.path(shared), to: list))
        }
        if members.take(anyOf: "eachRowRequired", "isAllRowRequired")?.value == .bool(true) {
            kind.options["allRowsRequired"] = true
            requireEveryRow(&kind)
        }
        // survey-core's multi-select matrix: each row holds a list of columns.
        switch members.take("cellType")?.stringValue {
        case "checkbox"?: kind.options["multiple"] = true
        case nil, "radio"?: break
        case let other?:
            note(.notConverted, members.path("cellType"), "cellType '\(other)'", "each row takes one column")
        }
        if members.members["cells"] != nil {
            note(.layoutOnly, members.path("cells"), "property 'cells'", "cell texts are not shown")
            _ = members.take("cells")
        }
        for key in ["rowsOrder", "rowOrder", "eachRowUnique", "hideIfRowsEmpty"]
        where members.take(key) != nil {
            note(.notConverted, members.path(key), "'\(key)'", "matrix rows and columns are always shown, in order")
        }
        return kind
    }

    /// The survey's `mode`: `"display"` (survey-core shows every question read-only, checks no
    /// answer, and completes) makes every step under the pages read-only (shown, not editable, not
    /// checked for `required`).
    func displayMode(_ members: inout Members, steps: inout [JSONValue]) {
        guard let mode = members.members["mode"]?.stringValue, mode == "edit" || mode == "display" else { return }
        _ = members.take("mode")
        guard mode == "display" else { return }
        func readOnly(_ step: JSONValue, isPage: Bool) -> JSONValue {
            guard case .object(var object) = step else { return step }
            if !isPage { object["readOnly"] = true }
            if case .array(let inner) = object["steps"] {
                object["steps"] = .array(inner.map { readOnly($0, isPage: false) })
            }
            return .object(object)
        }
        steps = steps.map { readOnly($0, isPage: true) }
    }

    /// A second column (or dynamic panel question) named like an earlier one: survey-core shows
    /// both, and both edit one value of the row; here the first asks it.
    mutating func noteSecondColumn(_ name: String, at path: JSONPath) {
        note(
            .notConverted, path, "a second column or item named '\(name)'",
            "left out: survey-core shows both, which edit one value of the row or panel")
    }

    /// `matrixdropdown`: rows, and columns each with its `cellType` (or the question's), title,
    /// `isRequired` and kind-specific members.
    mutating func matrixDropdown(_ members: inout Members) -> ConvertedKind {
        var kind = ConvertedKind(
            type: "matrix-dropdown",
            layout: [
                "alternateRows", "columnMinWidth", "rowTitleWidth", "showHeader", "verticalAlign", "columnLayout",
                "columnColCount", "horizontalScroll", "placeholder", "detailPanelMode", "transposeData",
            ])
        kind.options["rows"] = .array(
            joiningItemCondition(
                members.take("rowsVisibleIf"), at: members.path("rowsVisibleIf"),
                to: choices(Self.rowsAsKeyed(members.take("rows")), path: members.path("rows"), images: false)))
        let shared = choices(members.take("choices"), path: members.path("choices"), images: false)
        if !shared.isEmpty { kind.options["choices"] = .array(shared) }
        let defaultType = members.take("cellType")?.stringValue ?? "dropdown"
        if members.take(anyOf: "eachRowRequired", "isAllRowRequired")?.value == .bool(true) {
            kind.options["allRowsRequired"] = true
        }
        var columns: [JSONValue] = []
        var columnNames = Set<String>()
        for (index, json) in (members.take("columns")?.arrayValue ?? []).enumerated() {
            var column = Members(json.objectMembers ?? [:], path: members.path("columns").appending(index))
            guard let name = elementName(column.take("name")) else {
                note(.notConverted, column.path, "a column without a name", "the column is left out")
                continue
            }
            guard columnNames.insert(name).inserted else {
                noteSecondColumn(name, at: column.path)
                continue
            }
            var result: [String: JSONValue] = ["name": .string(name)]
            if let title = text(column.take("title"), column.path("title")) { result["title"] = title }
            if column.take("isRequired") == .bool(true) { result["required"] = true }
            let cellType = column.take("cellType")?.stringValue.flatMap { $0 == "default" ? nil : $0 } ?? defaultType
            var cell = ConvertedKind(type: "text")
            switch cellType {
            case "dropdown", "radiogroup", "checkbox", "tagbox":
                let multiple = cellType == "checkbox" || cellType == "tagbox"
                cell.type =
                    ["dropdown": "dropdown", "radiogroup": "single-choice", "checkbox": "multiple-choice"][cellType]
                    ?? "tagbox"
                if column.members["choices"] != nil {
                    choiceOptions(&column, into: &cell, multiple: multiple)
                } else {
                    var empty = Members([:], path: column.path)
                    choiceOptions(&empty, into: &cell, multiple: multiple)
                    cell.options.removeValue(forKey: "choices")
                    for key in ["showOtherItem", "hasOther", "showNoneItem", "hasNone", "otherText", "noneText"] {
                        if column.members[key] != nil {
                            note(
                                .notConverted, column.path(key), "'\(key)' of a column without its own choices",
                                "give the column its choices")
                            _ = column.take(key)
                        }
                    }
                }
            case "text":
                cell = textQuestion(&column)
            case "comment":
                cell = ConvertedKind(type: "text", options: ["multiline": true])
                textLimits(&column, into: &cell)
            case "boolean":
                cell.type = "boolean"
                for (from, to) in [("labelTrue", "trueLabel"), ("labelFalse", "falseLabel")] {
                    if let label = text(column.take(from), column.path(from)) { cell.options[to] = label }
                }
            case "rating":
                cell = rating(&column)
                // A column asks one of the scale's values (its end labels are layout there).
                if ["scale", "nps"].contains(cell.type), let choices = Self.scaleChoices(cell.options) {
                    cell = ConvertedKind(
                        type: "single-choice", options: ["choices": .array(choices)], layout: cell.layout)
                }
            default:
                note(.notConverted, column.path("cellType"), "cellType '\(cellType)'", "asked as free text")
            }
            guard
                [
                    "dropdown", "single-choice", "multiple-choice", "tagbox", "text", "number", "boolean", "rating",
                    "date",
                ].contains(cell.type)
            else {
                note(
                    .notConverted, column.path("cellType"), "a \(cellType) column that would be '\(cell.type)'",
                    "asked as free text")
                result["cellType"] = "text"
                columns.append(.object(result))
                continue
            }
            if partChoiceKinds.contains(cell.type), cell.options["choices"] == nil, shared.isEmpty {
                note(
                    .notConverted, column.path, "column '\(name)' without choices",
                    "survey-core offers nothing to pick in it either; the column is left out")
                // survey-core still totals the empty column (a sum of 0) in `<name>-total`.
                if let type = column.take("totalType")?.stringValue, Self.totalFunctions[type] != nil {
                    kind.totals[name] = type
                }
                continue
            }
            if cell.type != "dropdown" { result["cellType"] = .string(cell.type) }
            if !cell.options.isEmpty { result["options"] = .object(cell.options) }
            if Self.minimumMakesRequired(cell.options) { result["required"] = true }
            if !cell.validators.isEmpty {
                note(
                    .notConverted, column.path, "the checks of column '\(name)'",
                    "columns take their kind's options, not validators")
            }
            if column.take("validators") != nil {
                note(
                    .notConverted, column.path("validators"), "the validators of column '\(name)'",
                    "a column checks what its kind's options say (min, max, maxLength…), not validators")
            }
            columnVisibleIf(&column, into: &result)
            if let type = column.take("totalType")?.stringValue, Self.totalFunctions[type] != nil {
                kind.totals[name] = type
            }
            totalExpression(&column, name: name, into: &kind)
            if let value = column.take("defaultValue"), !value.isEmptyAnswer {
                kind.cellDefaults[name] = value
                note(
                    .notConverted, column.path("defaultValue"), "the defaultValue of column '\(name)'",
                    "survey-core's data holds it in every row once the matrix is shown, and so does its data shape here; the cells do not start with it"
                )
            }
            finish(column, layout: cell.layout.union(["width", "minWidth", "totalType", "totalDisplayStyle"]))
            columns.append(.object(result))
        }
        kind.options["columns"] = .array(columns)
        requireCheckedCells(&kind)
        return kind
    }

    /// `paneldynamic` (template elements) and `matrixdynamic` (columns) → `repeat`: one instance per
    /// panel or row, `panelCount`/`rowCount` (or `panelCountExpression`) as `count`, the min and max
    /// counts, `templateTitle` as `itemTitle`.
    mutating func repeatGroup(_ members: inout Members, itemsKey: String, dynamicMatrix: Bool) -> ConvertedKind {
        var kind = ConvertedKind(
            type: "repeat",
            layout: [
                "renderMode", "displayMode", "templateTabTitle", "tabTitlePlaceholder", "panelAddText",
                "panelRemoveText", "addPanelText", "removePanelText", "showQuestionNumbers", "showRangeInProgress",
                "panelPrevText", "panelNextText", "noEntriesText", "templateDescription", "confirmDelete",
                "confirmDeleteText", "allowAddPanel", "allowRemovePanel", "addRowText", "removeRowText",
                "allowAddRows", "allowRemoveRows", "addRowLocation", "hideColumnsIfEmpty", "emptyRowsText",
                "columnMinWidth", "rowTitleWidth", "showHeader", "alternateRows", "verticalAlign",
                "allowRowsDragAndDrop", "panelsState", "tabAlign", "newPanelPosition", "keyDuplicationError",
                "detailPanelMode", "transposeData", "showCommentArea",
            ])
        let shownRows = dynamicMatrix ? members.members["rowCount"]?.intValue ?? 2 : 0
        let countKeys =
            dynamicMatrix
            ? ("rowCount", "minRowCount", "maxRowCount") : ("panelCount", "minPanelCount", "maxPanelCount")
        if let expression = expression(members.take("panelCountExpression"), members.path("panelCountExpression")) {
            kind.options["count"] = expression
            _ = members.take(countKeys.0)
        } else {
            let count = members.take(countKeys.0)?.intValue
            // SurveyJS starts a dynamic panel or matrix with this many, which respondents may remove
            // (down to the minimum) or add to; survey-core's data holds a dynamic panel's empty panels.
            if !dynamicMatrix, let count, count > 0 { kind.emptyEntries = count }
            // A dynamic matrix shows its rowCount rows (2 unless given, at least minRowCount).
            // survey-core takes rows that hold nothing as an answer once it has built the rows;
            // answers given before (question.value on a page it has not built) with fewer empty
            // rows than rowCount are no answer. With questionsOnPageMode 'singlePage' it builds
            // them when the survey loads.
            if dynamicMatrix {
                let rows = buildsRowsOnLoad ? 1 : max(count ?? 2, members.members[countKeys.1]?.intValue ?? 0)
                let shown = max(rows, 1)
                kind.options["emptyEntriesAnswer"] = .number(Double(min(shown, 10_000)))
            }
        }
        if let minimum = members.take(countKeys.1)?.intValue, minimum > 0 {
            kind.options["minCount"] = .number(Double(minimum))
        }
        if let maximum = members.take(countKeys.2)?.intValue, maximum >= 0 {
            kind.options["maxCount"] = .number(Double(maximum))
        }
        if let title = text(members.take("templateTitle"), members.path("templateTitle")) {
            kind.options["itemTitle"] = title
        }
        // `bindings: {panelCount: q}`: survey-core keeps q and the number of panels equal (the data
        // shape writes them as it does; the respondent here adds the panels).
        if !dynamicMatrix, let bindings = members.take("bindings") {
            if let bound = bindings["panelCount"]?.stringValue, bindings.objectMembers?.count == 1 {
                kind.panelCountBinding = bound
            } else {
                note(
                    .notConverted, members.path("bindings"), "bindings \(describe(bindings))",
                    "only a panelCount bound to a question is read")
            }
        }
        let defaultType = dynamicMatrix ? (members.take("cellType")?.stringValue ?? "dropdown") : "text"
        let shared = dynamicMatrix ? choices(members.take("choices"), path: members.path("choices"), images: false) : []
        var items: [JSONValue] = []
        let template =
            dynamicMatrix
            ? (members.take(itemsKey)?.arrayValue ?? []).enumerated().map { index, json in
                TemplateItem(json: json, path: members.path(itemsKey).appending(index), conditions: [])
            }
            : flattenedTemplate(members.take(itemsKey), path: members.path(itemsKey), conditions: [])
        let templateNames = Set(template.compactMap { $0.json["name"]?.stringValue })
        // survey-core gives each new panel (those panelCount starts with too) `defaultPanelValue`,
        // over the template questions' own defaults.
        var panelDefaults = dynamicMatrix ? [:] : (members.take("defaultPanelValue")?.objectValue ?? [:])
        var itemNames = Set<String>()
        var seenNames = Set<String>()
        for entry in template {
            var item = Members(entry.json.objectMembers ?? [:], path: entry.path)
            // survey-core keys an item's answer by its valueName in each entry (when no other item has it).
            var chosen = elementName(item.take("name"), isSurveyElement: true, isQuestion: true)
            if let key = item.take("valueName")?.stringValue, !key.isEmpty, key != chosen,
                !templateNames.contains(key), itemNames.insert(key).inserted
            {
                chosen = key
            }
            guard let name = chosen else {
                note(.notConverted, item.path, "an item without a name", "it is left out")
                continue
            }
            guard seenNames.insert(name).inserted else {
                noteSecondColumn(name, at: item.path)
                continue
            }
            var type =
                (dynamicMatrix ? item.take("cellType")?.stringValue : item.take("type")?.stringValue) ?? defaultType
            if type == "default" { type = defaultType }
            if dynamicMatrix, ["dropdown", "radiogroup", "checkbox", "tagbox"].contains(type),
                item.members["choices"] == nil
            {
                item = Members(item.members.merging(["choices": .array(shared)]) { own, _ in own }, path: item.path)
                item.markUsed(["name", "cellType"])
            }
            if dynamicMatrix, ["dropdown", "radiogroup", "checkbox", "tagbox"].contains(type),
                item.members["choices"]?.arrayValue?.isEmpty ?? true, item.members["choicesByUrl"] == nil
            {
                note(
                    .notConverted, item.path, "column '\(name)' without choices",
                    "survey-core offers nothing to pick in it either; the column is left out")
                continue
            }
            if type == "expression" {
                // Computed in each entry, as survey-core's expression question or column is.
                if let computed = computedItem(name, &item, entry: entry, dynamicMatrix: dynamicMatrix, kind: &kind) {
                    items.append(computed)
                }
                continue
            }
            guard var converted = question(type, &item, id: name) else {
                note(
                    .notConverted, item.path, "item '\(name)' of type '\(type)'",
                    "not a kind a repeat's items can have; left out")
                continue
            }
            guard RepeatKinds.all.contains(converted.type) else {
                note(
                    .notConverted, item.path, "item '\(name)' (\(type))",
                    "a repeat's items are questions and groups that store an answer; left out")
                continue
            }
            if converted.type == "repeat", converted.options["count"]?.stringValue != nil {
                converted.options["count"] = nil
                note(
                    .notConverted, item.path("panelCountExpression"), "the panelCountExpression of item '\(name)'",
                    "a group inside a dynamic panel counts its own entries")
            }
            var result: [String: JSONValue] = ["name": .string(name)]
            if converted.options["other"] != nil { kind.entryOthers.append(name) }
            if converted.type == "file" { kind.entryFiles.append(name) }
            if converted.type != "text" { result["type"] = .string(converted.type) }
            if !converted.options.isEmpty { result["options"] = .object(converted.options) }
            if let title = text(item.take("title"), item.path("title")) { result["title"] = title }
            if !dynamicMatrix, let description = text(item.take("description"), item.path("description")) {
                result["description"] = description
            }
            if item.take("isRequired") == .bool(true) || Self.minimumMakesRequired(converted) {
                result["required"] = true
            }
            // Never shown (switched off, or in a panel that is): survey-core clears its default too.
            let neverShown =
                entry.conditions.contains("false")
                || (clearsWhenHidden(item, dynamicMatrix: dynamicMatrix) && item.members["visible"] == .bool(false)
                    && item.members["visibleIf"] == nil)
            if let condition = itemVisibleIf(&item, entry: entry, dynamicMatrix: dynamicMatrix) {
                result["visibleIf"] = .string(condition)
            }
            if let condition = expression(item.take("requiredIf"), item.path("requiredIf"))?.stringValue {
                result["requiredIf"] = .string(dynamicMatrix ? Self.rowAsPanel(condition) : condition)
                // It replaces isRequired, as for a question.
                if !Self.minimumMakesRequired(converted) { result["required"] = nil }
            }
            // `expression` validators are the item's own (reading its row as {panel.x}); the others
            // are what an item's kind checks by its options.
            let validators =
                converted.validators + Self.boundValidators(converted, reading: "{panel.\(name)}")
                + (item.take("validators").map { self.validators($0, path: item.path("validators")) } ?? [])
            let checks = validators.compactMap { validator -> JSONValue? in
                // A warning (notificationType) does not refuse: it is no check of an item here.
                guard validator["type"]?.stringValue == "expression",
                    let source = validator["expression"]?.stringValue,
                    Set((validator.objectValue ?? [:]).keys).isSubset(of: ["type", "expression", "text"])
                else { return nil }
                var check = validator.objectValue ?? [:]
                check["expression"] = .string(dynamicMatrix ? Self.rowAsPanel(source) : source)
                return .object(check)
            }
            if !checks.isEmpty { result["validators"] = .array(checks) }
            if checks.count < validators.count {
                note(
                    .notConverted, item.path("validators"), "the validators of item '\(name)' but its expression ones",
                    "an item checks what its kind's options say, not validators")
            }
            let panelDefault = panelDefaults.removeValue(forKey: name) ?? Self.nestedPanelsDefault(converted)
            if !dynamicMatrix, let value = panelDefault ?? item.members["defaultValue"], !value.isNull {
                // A dynamic panel's template question starts with it in each new panel, as the item
                // does here (`"=expression"` is its defaultValueExpression, as for any question),
                // fitted to the item's kind as a question's default is (a choice not listed is left out).
                _ = item.take("defaultValue")
                if let text = value.stringValue, text.hasPrefix("=") {
                    result["defaultValueExpression"] = .string(String(text.dropFirst()))
                    if !neverShown { kind.entryDefaults[name] = value }
                } else if let fitted = fittedDefault(value, of: converted, item) {
                    result["defaultValue"] = fitted
                    // survey-core's untouched panels hold it as given (the data shape gives them so).
                    if !neverShown { kind.entryDefaults[name] = value }
                }
            }
            if !dynamicMatrix,
                let source = expression(item.take("defaultValueExpression"), item.path("defaultValueExpression"))
            {
                result["defaultValueExpression"] = source
            }
            for key in ["enableIf", "readOnly"] + (dynamicMatrix ? ["defaultValue"] : [])
            where item.take(key) != nil {
                note(
                    .notConverted, item.path(key), "'\(key)' of item '\(name)'",
                    "repeat items take visibleIf, required and requiredIf only")
            }
            if dynamicMatrix, let type = item.take("totalType")?.stringValue, Self.totalFunctions[type] != nil {
                kind.totals[name] = type
            }
            if dynamicMatrix { totalExpression(&item, name: name, into: &kind) }
            finish(
                item,
                layout: converted.layout.union([
                    "width", "minWidth", "startWithNewLine", "titleLocation", "totalType", "totalDisplayStyle",
                ]))
            items.append(.object(result))
        }
        kind.options["items"] = .array(items)
        if !panelDefaults.isEmpty {
            note(
                .notConverted, members.path("defaultPanelValue"),
                "defaultPanelValue members \(panelDefaults.keys.sorted().map { "'\($0)'" }.joined(separator: ", "))",
                "no item of the converted group takes them; survey-core keeps them in each new panel's data")
        }
        // survey-core starts a dynamic panel with panelCount panels, each holding its questions' defaults.
        if let count = kind.emptyEntries,
            items.contains(where: {
                $0["defaultValue"] != nil || $0["defaultValueExpression"] != nil || $0["expression"] != nil
            })
        {
            kind.options["startCount"] = .number(Double(min(count, 10_000)))
        }
        // survey-core clears what a dynamic panel's visibleIf hides, not a hidden cell of a dynamic matrix,
        // and nothing in a survey that keeps hidden values (`clearInvisibleValues: "none"`).
        if dynamicMatrix || keepsHiddenValues, items.contains(where: { $0["visibleIf"] != nil }) {
            kind.options["clearHidden"] = false
        }
        if dynamicMatrix { requireShownRows(shownRows, in: &kind) }
        return kind
    }

    /// Whether survey-core clears the value of a template question while it is hidden, so that its
    /// `visible: false` matters here: not a dynamic matrix's column (it keeps its cells), not in a
    /// survey that keeps hidden values, nor a question that keeps its own (`clearIfInvisible: "none"`).
    func clearsWhenHidden(_ item: Members, dynamicMatrix: Bool) -> Bool {
        !dynamicMatrix && !keepsHiddenValues && item.members["clearIfInvisible"] != "none"
    }

    /// An item's `visibleIf`: its own joined with `and` to those of the panels it sits in. A dynamic
    /// matrix's column reads its row as {row.x}; a repeat's item reads {panel.x}.
    mutating func itemVisibleIf(_ item: inout Members, entry: TemplateItem, dynamicMatrix: Bool) -> String? {
        var conditions = entry.conditions
        // A template question switched off (`visible: false`) without a `visibleIf` never shows.
        let clears = clearsWhenHidden(item, dynamicMatrix: dynamicMatrix)
        let switchedOff = clears && item.members["visible"] == .bool(false)
        if clears { _ = item.take("visible") }
        if let condition = expression(item.take("visibleIf"), item.path("visibleIf"))?.stringValue {
            conditions.append(dynamicMatrix ? Self.rowAsPanel(condition) : condition)
        } else if switchedOff {
            conditions.append("false")
        }
        guard let first = conditions.first else { return nil }
        let joined = conditions.count == 1 ? first : conditions.map { "(\($0))" }.joined(separator: " and ")
        // The engine's own functions evaluate it: a call of the app's function is null, as computed items'.
        noteHostFunctions(in: joined, at: item.path("visibleIf"), pluginsMayProvide: false)
        return Self.nullingUnknownCalls(in: joined)
    }

    /// An expression question of a dynamic panel's template (an expression column of a dynamic
    /// matrix): an item computed in each entry, with its `visibleIf` and total.
    mutating func computedItem(
        _ name: String, _ item: inout Members, entry: TemplateItem, dynamicMatrix: Bool, kind: inout ConvertedKind
    ) -> JSONValue? {
        guard let source = expression(item.take("expression"), item.path("expression"))?.stringValue else {
            note(.notConverted, item.path, "item '\(name)' (expression)", "it has no expression; left out")
            finish(item, layout: [])
            return nil
        }
        noteHostFunctions(in: source, at: item.path("expression"), pluginsMayProvide: false)
        let computed = Self.nullingUnknownCalls(in: dynamicMatrix ? Self.rowAsPanel(source) : source)
        var result: [String: JSONValue] = ["name": .string(name), "expression": .string(computed)]
        if let title = text(item.take("title"), item.path("title")) { result["title"] = title }
        if let condition = itemVisibleIf(&item, entry: entry, dynamicMatrix: dynamicMatrix) {
            result["visibleIf"] = .string(condition)
        }
        if dynamicMatrix, let type = item.take("totalType")?.stringValue, Self.totalFunctions[type] != nil {
            kind.totals[name] = type
        }
        if dynamicMatrix { totalExpression(&item, name: name, into: &kind) }
        finish(
            item,
            layout: [
                "width", "minWidth", "startWithNewLine", "titleLocation", "totalType", "totalDisplayStyle", "format",
                "displayStyle", "currency", "minimumFractionDigits", "maximumFractionDigits", "useGrouping", "readOnly",
                "isRequired",
            ])
        return .object(result)
    }

    /// One element of a dynamic panel's template, with the `visibleIf` of each panel it sits in.
    struct TemplateItem {
        var json: JSONValue
        var path: JSONPath
        var conditions: [String]
    }

    /// The questions of a dynamic panel's template, panels opened: a question inside a panel is an
    /// item of its own, shown when it and every panel around it are (survey-core's layout panels
    /// group, they store nothing); `html` blocks are layout and left out.
    mutating func flattenedTemplate(_ json: JSONValue?, path: JSONPath, conditions: [String]) -> [TemplateItem] {
        var result: [TemplateItem] = []
        for (index, element) in (json?.arrayValue ?? []).enumerated() {
            let at = path.appending(index)
            switch element["type"]?.stringValue {
            case "panel":
                var panel = Members(element.objectMembers ?? [:], path: at)
                var inner = conditions
                let switchedOff = panel.take("visible") == .bool(false) && !keepsHiddenValues
                if let condition = expression(panel.take("visibleIf"), panel.path("visibleIf"))?.stringValue {
                    inner.append(condition)
                } else if switchedOff {
                    inner.append("false")
                }
                result += flattenedTemplate(panel.take("elements"), path: at.appending("elements"), conditions: inner)
                _ = panel.take("name")
                _ = panel.take("type")
                finish(panel, layout: Self.panelLayout)
            case "html", "image":
                let name = element["name"]?.stringValue.map { " '\($0)'" } ?? ""
                note(
                    .layoutOnly, at, "\(element["type"]?.stringValue ?? "")\(name) in a dynamic panel",
                    "left out: a repeat's items ask questions")
            default:
                result.append(TemplateItem(json: element, path: at, conditions: conditions))
            }
        }
        return result
    }

    /// Members of a panel inside a dynamic panel's template that only change how it looks.
    static let panelLayout: Set<String> = [
        "title", "description", "state", "innerIndent", "showNumber", "questionStartIndex", "questionTitleLocation",
    ]

    /// `expression` with a dynamic matrix's row references (`{row.x}`, `{rowIndex}`) written as a
    /// repeat's (`{panel.x}`, `({panelIndex} + 1)`: survey-core's `rowIndex` counts from 1, its
    /// `panelIndex` from 0).
    static func rowAsPanel(_ expression: String) -> String {
        replacingReferences(in: expression) { reference in
            let spaces = reference.prefix { $0 == " " }
            let name = reference.dropFirst(spaces.count)
            if name.lowercased().hasPrefix("row.") { return "{" + spaces + "panel." + name.dropFirst(4) + "}" }
            if name.lowercased().filter({ $0 != " " }) == "rowindex" { return "({panelIndex} + 1)" }
            // survey-core's `visibleRowIndex` counts the visible rows from 1.
            if name.lowercased().filter({ $0 != " " }) == "visiblerowindex" { return "({visiblePanelIndex} + 1)" }
            return "{" + reference + "}"
        }
    }

    /// `text` with each `{reference}` (what is between the braces) replaced by what `transform`
    /// gives for it; a `{` without its `}` is left as it is.
    static func rewritingReferences(in text: String, _ transform: (Substring) -> String) -> String {
        replacingReferences(in: text) { "{" + transform($0) + "}" }
    }

    /// `text` with each `{reference}`, braces included, replaced by what `replacement` gives for
    /// the reference (what is between the braces); a `{` without its `}` is left as it is.
    static func replacingReferences(in text: String, _ replacement: (Substring) -> String) -> String {
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            let inner = rest[rest.index(after: open)...]
            guard let close = inner.firstIndex(of: "}") else {
                result += "{"
                rest = inner
                continue
            }
            result += replacement(inner[..<close])
            rest = inner[inner.index(after: close)...]
        }
        return result + rest
    }
}

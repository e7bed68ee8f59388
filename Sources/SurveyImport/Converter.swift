import Foundation
import SurveyCore

/// One conversion: walks the SurveyJS survey, builds ours, and keeps the notes.
struct Converter {
    var notes: [ImportNote] = []
    var origins: [JSONPath: JSONPath] = [:]
    /// Survey-wide settings that apply to every question (`maxTextLength`) or page (`questionsOrder`).
    var maximumTextLength: Int?
    var shufflesPages = false
    /// The names of the pages converted so far, as survey-core names them.
    var pageNames: [String] = []
    /// Old-style `visible` triggers, made the `visibleIf` of their questions at the end.
    var visibleTriggers: [VisibleTrigger] = []
    var elementCount = 0
    /// Every element name the SurveyJS survey gives (so that a name made up for an unnamed or
    /// repeated one is free), and the ids given so far.
    var takenNames: Set<String> = []
    /// The names in `takenNames` only pages have: a question may take one as its id (the page is
    /// renamed when the conversion ends), as survey-core keeps pages and values apart.
    var pageOnlyNames: Set<String> = []
    var valueNames: Set<String> = []
    /// The value names a question has taken as its id.
    var valueNameOwners: Set<String> = []
    /// Whether the survey keeps the values of hidden questions (`clearInvisibleValues: "none"`).
    var keepsHiddenValues = false
    /// The dynamic panels and matrices converted so far (a dynamic panel on a later page may share
    /// their entries), with the page each is on.
    var dynamicPanelIDs: [String: String] = [:]
    /// Functions the expressions call that the engine does not have (an app registers them in
    /// survey-core), in the order first called: see ``SurveyJSDataShape/hostFunctions(in:)``.
    var hostFunctions: [String] = []
    var usedIDs: Set<String> = []
    /// The ids of the question kinds loaded plugins registered: a custom SurveyJS type of the same
    /// name becomes that kind (``pluginKind(_:_:)``).
    var pluginKinds: Set<String> = []
    /// Each converted question's SurveyJS type, by id (a second one of the same name and type shows the first's value).
    var questionTypes: [String: String] = [:]
    /// The kind each of those questions was converted to (`number` for a numeric `text`).
    var questionKinds: [String: String] = [:]
    /// Each quiz question (`correctAnswer`) with its correct answer as an expression literal.
    var quizAnswers: [(id: String, literal: String)] = []
    /// Whether an Other answer is stored as "other" with its text in `<name>-Comment` (survey-core's default).
    var storesOthersAsComment = true
    /// Whether survey-core builds every dynamic matrix's rows when the survey loads (`singlePage`):
    /// then any number of empty rows answers one.
    var buildsRowsOnLoad = false
    /// What survey-core's data shape needs to know (``SurveyJSDataShape``), kept under `x-surveyjs`.
    var dataShape = SurveyJSDataShape.Record()
    /// Whether the question being converted listed choices with Boolean values (kept as "true"/"false").
    var choicesHaveBooleans = false
    /// The choices of the question being converted whose values are objects: offered as their JSON
    /// text, stored as the object in the data shape (survey-core keeps `{"yes": "ja"}` as the value).
    var objectChoices: [String: JSONValue] = [:]
    /// Whether the question being converted takes its choices from a dynamic matrix's or panel's
    /// entries (`choiceValuesFromQuestion`), which is not carried forward here.
    var choicesSourceDropped = false
    /// The matrices with column totals, by `<name>-total` lowercased: `{name-total.column}` reads one.
    var matrixTotals: [String: (id: String, totals: [String: String])] = [:]
    /// Properties apps add to SurveyJS elements (survey-core ignores them), by JSON path, kept in `x-surveyjs`.
    var customProperties: [String: [String: JSONValue]] = [:]
    /// The names (lowercased) of the elements left out.
    var leftOut: Set<String> = []
    /// The names read that no question or calculated value defines, with where each is first read in
    /// the SurveyJS file: the host sets them (see ``resolveReferences(in:)``).
    var hostNames: [(name: String, path: JSONPath)] = []
    /// Expressions left out because they cannot be parsed (see ``expression(_:_:)``).
    var unparsableExpressions: [(text: String, message: String, path: JSONPath)] = []
    /// Whether an expression survey-core cannot parse either is left out (as survey-core ignores it)
    /// rather than kept, for the load to refuse (``SurveyJSImporter/convert(_:id:lenientExpressions:)``).
    var leavesOutUnparsableExpressions = false

    mutating func note(_ kind: ImportNote.Kind, _ path: JSONPath, _ what: String, _ why: String) {
        notes.append(ImportNote(kind, path: path, what: what, why: why))
    }

    /// Notes every member of `members` the conversion did not use.
    mutating func finish(_ members: Members, layout: Set<String> = []) {
        // Which element a note is about, when it has a name.
        let element = members.members["name"]?.stringValue.map { " of '\($0)'" } ?? ""
        for key in members.unused {
            let path = members.path(key)
            let name = members.spelling(key)
            if layout.contains(key) || Vocabulary.layout.contains(key) {
                note(.layoutOnly, path, "property '\(name)'", "it changes only how the survey looks")
            } else if let reason = Vocabulary.unsupported[key] {
                note(.notConverted, path, "property '\(name)'\(element)", reason)
            } else if SurveyCoreProperties.names.contains(key) {
                note(
                    .notConverted, path, "property '\(name)'\(element)",
                    "a SurveyJS property the converter does not convert")
            } else {
                // An app's own property: survey-core keeps it and does nothing with it; so does this
                // engine, under the converted survey's x-surveyjs member.
                customProperties[members.path.description, default: [:]][key] = members.members[key]
                note(.custom, path, "property '\(name)'", "an app's own property, kept under x-surveyjs")
            }
        }
    }

    // MARK: - Survey

    mutating func survey(_ json: JSONValue, id: String) throws(SurveyJSImportError) -> JSONValue {
        var members = Members(json.objectMembers ?? [:], path: .root)
        var result: [String: JSONValue] = ["formatVersion": 1, "id": .string(id)]
        result["title"] = text(members.take("title"), members.path("title")) ?? .string(id)
        if let name = members.take("name") {
            // Not a property of survey-core's survey (it reports it as unknown and keeps nothing).
            customProperties[members.path.description, default: [:]]["name"] = name
            note(.custom, members.path("name"), "property 'name'", "an app's own property, kept under x-surveyjs")
        }
        if let description = text(members.take("description"), members.path("description")) {
            result["description"] = description
        }
        if let locale = members.take("locale") {
            if let code = locale.stringValue, !code.isEmpty {
                result["defaultLocale"] = .string(code)
            } else {
                note(.notConverted, members.path("locale"), "'locale'", "expected a locale code such as \"de\"")
            }
        }
        if let length = members.take("maxTextLength") {
            if let count = length.intValue, count > 0 { maximumTextLength = count }
        }
        if let order = members.take(anyOf: "questionsOrder", "questionOrder")?.value.stringValue {
            if order == "random" {
                shufflesPages = true
            } else if order != "initial" && order != "default" {
                note(
                    .notConverted, members.path("questionsOrder"), "questionsOrder '\(order)'",
                    "only \"random\" is known")
            }
        }
        var settings: [String: JSONValue] = [:]
        if let clear = members.take("clearInvisibleValues") {
            switch clear.stringValue {
            case "onComplete", "onHidden", "none":
                settings["clearInvisibleValues"] = clear
                keepsHiddenValues = clear == "none"
            case "onHiddenContainer":
                settings["clearInvisibleValues"] = "onHidden"
                note(
                    .notConverted, members.path("clearInvisibleValues"), "clearInvisibleValues 'onHiddenContainer'",
                    "converted as \"onHidden\": an answer is cleared when its question is hidden, not only its page or panel"
                )
            default:
                note(
                    .notConverted, members.path("clearInvisibleValues"), "clearInvisibleValues \(describe(clear))",
                    "expected onComplete, onHidden, onHiddenContainer or none")
            }
        }
        if let mode = members.take("checkErrorsMode")?.stringValue, mode != "onNextPage" {
            // onValueChanged only shows errors earlier: survey-core still checks the page on Next.
            note(
                mode == "onValueChanged" ? .layoutOnly : .notConverted, members.path("checkErrorsMode"),
                "checkErrorsMode '\(mode)'", "answers are checked when given and on Next")
        }
        let pageMode = members.take("questionsOnPageMode")?.stringValue
        buildsRowsOnLoad = pageMode == "singlePage"
        if let pageMode, !["standard", "questionPerPage", "singlePage"].contains(pageMode) {
            note(
                .notConverted, members.path("questionsOnPageMode"), "questionsOnPageMode '\(pageMode)'",
                "pages are kept as the file has them")
        }
        if let others = members.take("storeOthersAsComment") {
            if let flag = others.boolValue {
                storesOthersAsComment = flag
            } else {
                note(
                    .notConverted, members.path("storeOthersAsComment"), "storeOthersAsComment \(describe(others))",
                    "expected true or false")
            }
        }
        if !settings.isEmpty { result["settings"] = .object(settings) }

        (takenNames, valueNames, pageOnlyNames) = Self.elementNames(in: json) { [pluginKinds] type in
            Vocabulary.surveyCoreElementTypes.contains(type.lowercased()) || pluginKinds.contains(type)
        }
        var steps: [JSONValue] = []
        if let pages = members.take("pages") {
            guard case .array(let list) = pages else {
                throw SurveyJSImportError(
                    "'pages' must be an array, got \(pages.kindDescription)", path: members.path("pages"))
            }
            for (index, page) in list.enumerated() {
                let path = members.path("pages").appending(index)
                let page = Self.numberingTexts(of: page, number: index + 1, of: list.count)
                if let converted = self.page(
                    page, path: path, ours: JSONPath.root.appending("steps").appending(steps.count))
                {
                    steps.append(converted)
                }
            }
        }
        for key in ["elements", "questions"] {
            guard let elements = members.take(key) else { continue }
            // Elements outside pages make one page, as SurveyJS does.
            let ours = JSONPath.root.appending("steps").appending(steps.count)
            origins[ours] = members.path(key)
            let inner = self.elements(elements, path: members.path(key), ours: ours.appending("steps"))
            steps.append(.object(["id": .string(pageName(nil)), "type": "page", "steps": .array(inner)]))
        }
        if steps.isEmpty {
            throw SurveyJSImportError("the survey has no pages and no elements")
        }
        displayMode(&members, steps: &steps)
        if pageMode == "questionPerPage" { steps = onePagePerQuestion(steps, keepingFirst: hasStartPage(members)) }
        if pageMode == "singlePage" { steps = allPagesOnOne(steps) }
        renameClashingPages(&steps)

        if let calculated = members.take("calculatedValues") {
            result["calculatedValues"] = .array(calculatedValues(calculated, path: members.path("calculatedValues")))
        }
        if let triggers = members.take("triggers") {
            var converted = self.triggers(triggers, path: members.path("triggers"))
            addDataKeys(for: &converted, to: &steps)
            if !converted.isEmpty { result["triggers"] = .array(converted) }
        }
        applyVisibleTriggers(to: &steps)
        result["steps"] = .array(steps)
        var messages: [JSONValue] = []
        if let conditional = members.take("completedHtmlOnCondition") {
            for (index, item) in (conditional.arrayValue ?? []).enumerated() {
                var entry = Members(
                    item.objectMembers ?? [:], path: members.path("completedHtmlOnCondition").appending(index))
                guard let condition = expression(entry.take("expression"), entry.path("expression")),
                    let html = text(entry.take("html"), entry.path("html"))
                else {
                    note(
                        .notConverted, entry.path, "a completedHtmlOnCondition entry", "it needs an expression and html"
                    )
                    continue
                }
                messages.append(["if": condition, "text": html])
                finish(entry)
            }
        }
        if let html = text(members.take("completedHtml"), members.path("completedHtml")) {
            messages.append(["text": html])
        }
        if !messages.isEmpty { result["completionMessages"] = .array(messages) }
        let redirects = completionRedirects(&members)
        if !redirects.isEmpty { result["completionRedirects"] = .array(redirects) }
        finish(members)
        addQuizScores(to: &result)
        resolveReferences(in: &result)
        var kept: [String: JSONValue] = [:]
        if !dataShape.isEmpty { kept["data"] = dataShape.json }
        if !customProperties.isEmpty { kept["properties"] = .object(customProperties.mapValues { .object($0) }) }
        if !hostFunctions.isEmpty { kept["hostFunctions"] = .array(hostFunctions.map { .string($0) }) }
        if !kept.isEmpty { result[SurveyJSDataShape.extensionKey] = .object(kept) }
        return .object(result)
    }

    /// `questionsOnPageMode: "singlePage"`: survey-core shows one page, `single-page`, holding each
    /// page as a panel (with its title, description and `visibleIf`).
    mutating func allPagesOnOne(_ steps: [JSONValue]) -> [JSONValue] {
        var panels: [JSONValue] = []
        for (index, step) in steps.enumerated() {
            guard case .object(var page) = step else { continue }
            page["type"] = "panel"
            if page.removeValue(forKey: "shuffle") != nil {
                let origin = origins[.root.appending("steps").appending(index)] ?? .root
                note(
                    .notConverted, origin.appending("questionsOrder"), "questionsOrder 'random' of a page",
                    "with questionsOnPageMode 'singlePage' it is a panel, and only pages shuffle")
            }
            panels.append(.object(page))
        }
        var moved: [JSONPath: JSONPath] = [:]
        for (path, origin) in origins {
            var components = path.components
            if components.count >= 2, components[0] == .key("steps") {
                components.insert(contentsOf: [.key("steps"), .index(0)], at: 0)
            }
            moved[JSONPath(components)] = origin
        }
        origins = moved
        return [["id": "single-page", "type": "page", "steps": .array(panels)]]
    }

    /// `questionsOnPageMode: "questionPerPage"`: each element of a page (a question, or a panel with
    /// its questions) asked on a page of its own, as survey-core asks it; the first keeps the page's
    /// id, the others `<id>-2`, `<id>-3`… (notes say which), each with the page's `visibleIf`; a start page whole.
    mutating func onePagePerQuestion(_ steps: [JSONValue], keepingFirst: Bool) -> [JSONValue] {
        var result: [JSONValue] = []
        // Where each page (and each child of a split page) now is: the origins follow.
        var movedPages: [Int: Int] = [:]
        var movedChildren: [Int: [Int]] = [:]
        for (index, step) in steps.enumerated() {
            guard case .object(let page) = step, page["type"] == "page", let id = page["id"]?.stringValue,
                let children = page["steps"]?.arrayValue, children.count > 1, index > 0 || !keepingFirst
            else {
                movedPages[index] = result.count
                result.append(step)
                continue
            }
            let origin = origins[.root.appending("steps").appending(index)] ?? .root
            movedPages[index] = result.count
            movedChildren[index] = Array(result.count..<(result.count + children.count))
            for (position, child) in children.enumerated() {
                var single = page
                single["steps"] = [child]
                if position > 0 {
                    let name = "\(id)-\(position + 1)"
                    single["id"] = .string(name)
                    let question = child["id"]?.stringValue ?? ""
                    note(
                        .renamed, origin.appending("name"), "page '\(id)' is now '\(name)' for '\(question)'",
                        "questionsOnPageMode 'questionPerPage' asks each question on a page of its own")
                }
                result.append(.object(single))
            }
        }
        var moved: [JSONPath: JSONPath] = [:]
        for (path, origin) in origins {
            var components = path.components
            if components.count >= 2, components[0] == .key("steps"), case .index(let page) = components[1],
                let target = movedPages[page]
            {
                components[1] = .index(target)
                if components.count >= 4, let pages = movedChildren[page], case .index(let child) = components[3],
                    child < pages.count
                {
                    components[1] = .index(pages[child])
                    components[3] = .index(0)
                }
            }
            moved[JSONPath(components)] = origin
        }
        // A split page's own origin stays with each of its pages.
        for (page, pages) in movedChildren {
            if let origin = origins[.root.appending("steps").appending(page)] {
                for target in pages { moved[.root.appending("steps").appending(target)] = origin }
            }
        }
        origins = moved
        return result
    }

    /// Element types that hold no value: their names are never read by expressions.
    static func holdsNoValue(_ type: String) -> Bool { ["panel", "flowpanel", "html", "image"].contains(type) }

    /// SurveyJS keeps page names apart from question names; here they share one namespace, so a
    /// page named like a question (or a calculated value) becomes `<name>-page`.
    mutating func renameClashingPages(_ steps: inout [JSONValue]) {
        var taken = Set<String>()
        func collect(_ list: [JSONValue]) {
            for step in list {
                if step["type"] != "page", let id = step["id"]?.stringValue { taken.insert(id) }
                collect(step["steps"]?.arrayValue ?? [])
            }
        }
        collect(steps)
        var pageIDs = Set(steps.compactMap { $0["type"] == "page" ? $0["id"]?.stringValue : nil })
        var earlierPages = Set<String>()
        for index in steps.indices {
            guard steps[index]["type"] == "page", let id = steps[index]["id"]?.stringValue,
                var page = steps[index].objectMembers
            else { continue }
            guard taken.contains(id) || earlierPages.contains(id) else {
                earlierPages.insert(id)
                continue
            }
            // Named like a question: `<id>-page`; like an earlier page (survey-core keeps both): `<id>-2`.
            let clashesWithQuestion = taken.contains(id)
            let renamed = Self.firstFree(
                clashesWithQuestion ? id + "-page" : id + "-", bare: clashesWithQuestion, from: 2
            ) {
                taken.contains($0) || pageIDs.contains($0)
            }
            pageIDs.insert(renamed)
            page["id"] = .string(renamed)
            steps[index] = .object(page)
            let origin = origins[JSONPath.root.appending("steps").appending(index)] ?? .root
            note(
                .renamed, origin.appending("name"),
                clashesWithQuestion
                    ? "page '\(id)' is now '\(renamed)'" : "a second page named '\(id)' is now '\(renamed)'",
                clashesWithQuestion
                    ? "a question has the same name, and pages and questions share one namespace here"
                    : "ids are unique here")
        }
    }

    // MARK: - Pages, panels, elements

    /// A page's `name`, or for an unnamed page the name survey-core gives it: `page` and the
    /// smallest number from 1 that no page before it is named (pages `page1`, `X`, unnamed → `page2`).
    mutating func pageName(_ name: String?) -> String {
        let result =
            name
            ?? Self.firstFree("page", bare: false, from: 1) { [pageNames] in pageNames.contains($0) }
        pageNames.append(result)
        return result
    }

    mutating func elements(_ json: JSONValue, path: JSONPath, ours: JSONPath, offset: Int = 0) -> [JSONValue] {
        guard case .array(let list) = json else {
            note(.notConverted, path, "'\(path.components.last.map { "\($0)" } ?? "elements")'", "expected an array")
            return []
        }
        var result: [JSONValue] = []
        for (index, element) in list.enumerated() {
            if let converted = self.element(
                element, path: path.appending(index), ours: ours.appending(offset + result.count))
            {
                result.append(converted)
            }
        }
        return result
    }

    mutating func element(_ json: JSONValue, path: JSONPath, ours: JSONPath) -> JSONValue? {
        let converted = convertElement(json, path: path, ours: ours)
        // A question left out: a reference to it is a load error, not a value the host sets.
        if converted == nil, let name = elementName(json.objectMembers?["name"]) { leftOut.insert(name.lowercased()) }
        return converted
    }

    mutating func convertElement(_ json: JSONValue, path: JSONPath, ours: JSONPath) -> JSONValue? {
        guard let object = json.objectMembers else {
            note(.notConverted, path, "an element that is \(json.kindDescription)", "an element is an object")
            return nil
        }
        elementCount += 1
        var members = Members(object, path: path)
        guard let typeName = members.take("type")?.stringValue else {
            note(.notConverted, path, "an element without a 'type'", "the element is left out")
            return nil
        }
        // survey-core matches types case-insensitively (`checkBox` is a checkbox).
        let type = Vocabulary.surveyCoreElementTypes.contains(typeName.lowercased()) ? typeName.lowercased() : typeName
        if !createsElement(ofType: type), elementName(members.members["name"]) != nil {
            // survey-core creates no element of a type it does not know: its name is free for others.
            note(
                .notConverted, members.path("type"), "type '\(type)'",
                "not a SurveyJS question type the converter knows; the element is left out")
            return nil
        }
        var id: String
        let written = members.take("name")
        if let given = elementName(written, isSurveyElement: true, isQuestion: !Self.holdsNoValue(type)) {
            id = given
            if let text = written?.stringValue, text != given {
                let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines) == given
                note(
                    .renamed, members.path("name"), "name '\(text)' is '\(given)'",
                    trimmed
                        ? "survey-core trims names"
                        : "survey-core removes a name's first '|' (and a question's braces and leading '#'), and keys its answer so"
                )
            }
        } else if !Vocabulary.surveyCoreElementTypes.contains(type.lowercased()) {
            // survey-core creates no element of a type it does not know, so such an element takes no
            // name (the next unnamed question is `question1`, not `question2`).
            note(
                .notConverted, members.path("type"), "type '\(type)'",
                "not a SurveyJS question type the converter knows; the element is left out")
            return nil
        } else if let text = written?.stringValue, text.trimmingCharacters(in: .whitespaces).isEmpty,
            !Self.holdsNoValue(type)
        {
            id = emptyNamed(at: members.path("name"))
        } else {
            id = freeName(type == "panel" || type == "flowpanel" ? "panel" : "question")
            note(
                .renamed, members.path("name"), "an element without a name",
                "it is named '\(id)', as survey-core names it")
        }
        if Self.holdsNoValue(type), valueNames.contains(id) {
            // A panel or an html block named like a question: the question keeps the name, which
            // expressions read.
            let renamed = freeName(id + "-" + (type == "flowpanel" ? "panel" : type))
            note(
                .renamed, members.path("name"), "\(type) '\(id)' is now '\(renamed)'",
                "a question has the same name (survey-core keeps them apart; ids are unique here)")
            id = renamed
        }
        var sharesAnswer: String?
        /// A dynamic panel sharing an earlier dynamic panel's entries (its valueName): that panel's id.
        var sharesEntriesOf: String?
        if !Self.holdsNoValue(type), let key = members.take("valueName")?.stringValue, !key.isEmpty, key != id,
            type == "paneldynamic", let page = dynamicPanelIDs[key], page != Self.page(of: ours)
        {
            // survey-core keeps one list of entries under the key; each panel adds its own questions
            // to the same entries (names on one page, schools on another, a review at the end).
            sharesEntriesOf = key
            let own = id
            id = freeName(key + "-")
            note(
                .renamed, members.path("valueName"), "dynamic panel '\(own)' is '\(id)' here",
                "it shares the entries of '\(key)' (its valueName): one panel per entry of '\(key)', and its answers are merged into those entries in the data, as survey-core keeps them"
            )
        } else if !Self.holdsNoValue(type), let key = members.take("valueName")?.stringValue, !key.isEmpty, key != id {
            // survey-core stores the answer under its valueName, which expressions read: the first
            // question with that key (when no element is named so) is that key here; the others show
            // the same answer in survey-core, and are asked once, there.
            if !takenNames.contains(key) || pageOnlyNames.contains(key), !usedIDs.contains(key),
                valueNameOwners.insert(key).inserted
            {
                note(
                    .renamed, members.path("valueName"), "question '\(id)' is now '\(key)'",
                    "its valueName: survey-core stores its answer under that name")
                id = key
            } else {
                sharesAnswer = key
                note(
                    .notConverted, members.path("valueName"), "question '\(id)' shares the answer '\(key)'",
                    "survey-core shows one value in both; here it is asked once, by the first, and this one is not asked"
                )
            }
        }
        /// A second question of a name, of the same simple type: the question whose value it shows.
        var duplicateOf: String?
        /// A second element of a name that keeps an answer of its own here: the first one's name.
        var secondOf: String?
        let isSecondElement = usedIDs.contains(id)
        if !usedIDs.insert(id).inserted {
            let renamed = freeName(id + "-")
            if let first = questionTypes[id], Self.showsSharedValue.contains(type),
                Self.sharedValueClass(ofType: first) == Self.sharedValueClass(ofType: type)
            {
                // Decided once its kind is known (the first's, as converted, too).
                duplicateOf = id
            } else {
                secondOf = id
                noteSecondElement(id, renamed: renamed, at: members.path("name"))
            }
            id = renamed
        } else if !Self.holdsNoValue(type) {
            questionTypes[id] = type
        }
        if let reason = Vocabulary.unconvertedTypes[type] {
            note(.notConverted, path, "\(type) '\(id)'", reason + "; the element is left out")
            return nil
        }
        var result: [String: JSONValue] = ["id": .string(id)]
        origins[ours] = path
        if type == "panel" || type == "flowpanel" {
            result["type"] = "panel"
            copyCommon(&members, into: &result, keys: ["title", "description"])
            copyConditions(&members, into: &result, keys: ["visibleIf", "enableIf", "requiredIf"])
            if let required = members.take("isRequired"), result["requiredIf"] == nil { result["required"] = required }
            if let readOnly = members.take("readOnly") { result["readOnly"] = readOnly }
            switchOff(&members, into: &result)
            if let order = members.take(anyOf: "questionsOrder", "questionOrder")?.value.stringValue, order == "random"
            {
                note(
                    .notConverted, members.path("questionsOrder"), "questionsOrder 'random' on a panel",
                    "only pages shuffle")
            }
            let steps = children(&members, ours: ours)
            finish(members)
            guard !steps.isEmpty else {
                note(.notConverted, path, "panel '\(id)' with nothing to ask", "an empty panel is left out")
                return nil
            }
            result["steps"] = .array(steps)
            return .object(result)
        }
        choicesHaveBooleans = false
        objectChoices = [:]
        choicesSourceDropped = false
        guard var kind = question(type, &members, id: id) ?? pluginKind(type, &members) else {
            note(
                .notConverted, members.path("type"), "type '\(type)'",
                "not a SurveyJS question type the converter knows; the element is left out")
            return nil
        }
        if let owner = duplicateOf {
            if questionKinds[owner].map(Self.sharedValueClass(ofKind:)) == Self.sharedValueClass(ofKind: kind.type) {
                // survey-core gives both one value: this one shows the first's answer (a required one
                // is answered already) and an answer given here is the first's in the data.
                note(
                    .renamed, members.path("name"), "a second question named '\(owner)'",
                    "it is named '\(id)' here; it starts with the first one's answer and the data keeps one value, '\(owner)', as survey-core does"
                )
            } else {
                (duplicateOf, secondOf) = (nil, owner)
                noteSecondElement(owner, renamed: id, at: members.path("name"))
            }
        } else if questionTypes[id] == type, questionKinds[id] == nil {
            questionKinds[id] = kind.type
        }
        if type == "paneldynamic" || type == "matrixdynamic", kind.type == "repeat" {
            dynamicPanelIDs[id] = Self.page(of: ours)
        }
        if let owner = sharesEntriesOf, kind.type == "repeat" {
            // As many panels as the entries it shares, whatever its own counts say.
            kind.options["count"] = .string("{\(owner).length}")
            kind.options["minCount"] = nil
            kind.options["maxCount"] = nil
            kind.emptyEntries = nil
            kind.panelCountBinding = nil
            dataShape.sharedEntries[id] = owner
            // survey-core gives it a panel per entry, shown or not, and each holds its items' defaults;
            // shown one at a time, only the panels it starts with (panelCount) are built and hold them.
            if !kind.entryDefaults.isEmpty {
                dataShape.panelDefaults[id] = kind.entryDefaults
                let mode = (object["displayMode"] ?? object["renderMode"])?.stringValue ?? "list"
                if mode != "list" {
                    let count = object["panelCount"].flatMap { $0.intValue ?? $0.stringValue.flatMap { Int($0) } }
                    dataShape.defaultedPanels[id] = max(0, count ?? 0)
                }
            }
            // Its items' defaults are in the shared entries survey-core starts with.
            if dataShape.emptyPanels[owner] != nil {
                dataShape.panelDefaults[owner, default: [:]].merge(kind.entryDefaults) { first, _ in first }
                if dataShape.panelDefaults[owner]?.isEmpty == true { dataShape.panelDefaults[owner] = nil }
            }
        }
        result["type"] = .string(kind.type)
        if !kind.options.isEmpty { result["options"] = .object(kind.options) }
        if storesOthersAsComment, kind.options["other"] != nil { dataShape.othersAsComment.append(id) }
        if storesOthersAsComment, !kind.entryOthers.isEmpty { dataShape.entryOthersAsComment[id] = kind.entryOthers }
        // A dynamic panel that shares its answer with another adds its defaults to that one's panels.
        let shapeKey = sharesAnswer ?? id
        if let count = kind.emptyEntries, dataShape.emptyPanels[shapeKey] == nil {
            dataShape.emptyPanels[shapeKey] = count
        }
        if kind.emptyEntries != nil {
            dataShape.panelDefaults[shapeKey, default: [:]].merge(kind.entryDefaults) { first, _ in first }
            if dataShape.panelDefaults[shapeKey]?.isEmpty == true { dataShape.panelDefaults[shapeKey] = nil }
        }
        if type == "matrixdynamic", let shown = kind.options["emptyEntriesAnswer"]?.intValue {
            dataShape.emptyRows[id] = shown
        }
        // (A second matrix of a name keeps its own key here, where survey-core merges the two.)
        if !kind.cellDefaults.isEmpty, !isSecondElement {
            let rows = (kind.options["rows"]?.arrayValue ?? []).compactMap { ($0["value"] ?? $0).choiceKey }
            dataShape.rowDefaults[id] = ["rows": .array(rows.map { .string($0) }), "cells": .object(kind.cellDefaults)]
        }
        if kind.type == "file" { dataShape.files.append(id) }
        if !kind.entryFiles.isEmpty { dataShape.entryFiles[id] = kind.entryFiles }
        if choicesHaveBooleans { dataShape.booleanChoices.append(id) }
        if !objectChoices.isEmpty { dataShape.objectChoices[id] = objectChoices }
        if let bound = kind.panelCountBinding {
            dataShape.bindings[id] = [
                "question": .string(bound), "max": kind.options["maxCount"] ?? .number(100),
            ]
        }
        if !kind.totals.isEmpty {
            dataShape.totals[id] = kind.totals
            matrixTotals[(id + "-total").lowercased()] = (id, kind.totals)
        }
        if let correct = members.take("correctAnswer") {
            if let literal = Self.expressionLiteral(correct) {
                quizAnswers.append((id, literal))
            } else {
                note(
                    .notConverted, members.path("correctAnswer"), "correctAnswer \(describe(correct))",
                    "only a value, a list of values or a Boolean is scored here")
            }
        }
        if kind.type == "expression" {
            // The expression gives the value, as in survey-core (it runs again on every change).
            for key in ["defaultValue", "defaultValueExpression", "setValueIf", "setValueExpression", "resetValueIf"] {
                guard members.take(key) != nil else { continue }
                note(
                    .notConverted, members.path(key), "\(key) of an expression question",
                    "its expression gives its value")
            }
        }
        let computed = kind.type == "expression"
        copyCommon(&members, into: &result, keys: ["title", "description"])
        copyConditions(
            &members, into: &result,
            keys: ["visibleIf", "enableIf", "requiredIf"]
                + (computed ? [] : ["setValueIf", "setValueExpression", "resetValueIf"]))
        // survey-core sets isRequired from a requiredIf each time conditions run: it replaces isRequired.
        if let required = members.take("isRequired"), result["requiredIf"] == nil { result["required"] = required }
        if Self.minimumMakesRequired(kind) { result["required"] = true }
        if let readOnly = members.take("readOnly") { result["readOnly"] = readOnly }
        if kind.isReadOnly { result["readOnly"] = true }
        switchOff(&members, into: &result)
        if sharesAnswer != nil {
            result["enabled"] = false
            result["visibleIf"] = nil
        }
        if !computed, let value = members.take("defaultValue") {
            // survey-core reads a default written "=expression" as its defaultValueExpression.
            if let text = value.stringValue, text.hasPrefix("=") {
                result["defaultValueExpression"] = .string(String(text.dropFirst()))
            } else if let fitted = fittedDefault(value, of: kind, members) {
                result["defaultValue"] = isoDefault(fitted, of: kind, members)
            }
        }
        if !computed,
            let value = expression(members.take("defaultValueExpression"), members.path("defaultValueExpression"))
        {
            result["defaultValueExpression"] = value
        }
        if let owner = duplicateOf {
            if result["defaultValue"] == nil, result["defaultValueExpression"] == nil {
                result["defaultValueExpression"] = .string("{\(owner)}")
            }
            dataShape.duplicates[id] = owner
        } else if let owner = secondOf, questionTypes[owner] != nil, result["required"] == .bool(true),
            result["requiredIf"] == nil
        {
            // survey-core checks the name's one value: an answer to the first question answers this one.
            (result["required"], result["requiredIf"]) = (nil, .string("{\(owner)} empty"))
        }
        if let source = members.take("choicesFromQuestion"), !choicesSourceDropped {
            result["choicesFromQuestion"] = source
        }
        if let mode = members.take("choicesFromQuestionMode") { result["choicesFromQuestionMode"] = mode }
        if let condition = kind.choicesVisibleIf { result["choicesVisibleIf"] = .string(condition) }
        if let comment = members.take(anyOf: "showCommentArea", "hasComment"), comment.value == .bool(true) {
            if kind.options["other"] != nil {
                // survey-core then keeps the Other text in place of "other" in the answer (as the engine
                // does) and the comment in `<name>-Comment`; here the Other text is that comment slot.
                note(
                    .notConverted, members.path(comment.key), "the comment area of '\(id)' (it has an Other choice)",
                    "left out: the Other text is kept in the answer, as survey-core does with both; the comment is not asked"
                )
                dataShape.othersAsComment.removeAll { $0 == id }
                _ = members.take("commentText")
            } else {
                result["showCommentArea"] = true
            }
        }
        if let label = text(members.take("commentText"), members.path("commentText")) { result["commentText"] = label }
        if let message = text(members.take("requiredErrorText"), members.path("requiredErrorText")) {
            result["requiredMessage"] = message
        }
        var validators = kind.validators + Self.boundValidators(kind, reading: "{\(id)}")
        if let list = members.take("validators") {
            validators += self.validators(list, path: members.path("validators")).filter { validator in
                // survey-core checks a choice's value (or its Other text) as text; here choices are not text.
                let type = validator["type"]?.stringValue ?? ""
                let checksSingleChoice =
                    ["single-choice", "dropdown"].contains(kind.type) && ["numeric", "regex"].contains(type)
                guard Self.choiceKinds.contains(kind.type), ["numeric", "regex", "text", "email"].contains(type),
                    !checksSingleChoice
                else { return true }
                note(
                    .notConverted, members.path("validators"), "a '\(type)' validator of a '\(kind.type)' question",
                    "left out: it checks typed text, and survey-core applies it to the choice or the Other text")
                return false
            }
        }
        if kind.type == "multiple-text" {
            validators = multipleTextValidators(validators, id: id, path: members.path("validators"))
        }
        if !validators.isEmpty { result["validators"] = .array(validators) }
        finish(members, layout: kind.layout)
        return .object(result)
    }

    /// `visible: false` switches the element off, unless it has a `visibleIf`: survey-core then shows
    /// it whenever the condition holds (the condition is copied before this is called).
    mutating func switchOff(_ members: inout Members, into result: inout [String: JSONValue]) {
        guard members.take("visible") == .bool(false) else { return }
        if result["visibleIf"] == nil { result["enabled"] = false }
    }

    /// Copies localisable texts.
    mutating func copyCommon(_ members: inout Members, into result: inout [String: JSONValue], keys: [String]) {
        for key in keys {
            if let value = text(members.take(key), members.path(key)) { result[key] = value }
        }
    }

    mutating func copyConditions(_ members: inout Members, into result: inout [String: JSONValue], keys: [String]) {
        for key in keys {
            if let value = expression(members.take(key), members.path(key)) { result[key] = value }
        }
    }

    // MARK: - Values

    /// A localisable text: a string, or an object of strings by locale (`default` stays the neutral text).
    mutating func text(_ value: JSONValue?, _ path: JSONPath) -> JSONValue? {
        guard let value else { return nil }
        switch value {
        case .string: return value
        case .number, .bool: return .string(JSONValue.format(text: value))
        case .object(let translations):
            var result: [String: JSONValue] = [:]
            for (locale, text) in translations {
                guard case .string = text else {
                    note(
                        .notConverted, path.appending(locale), "a \(text.kindDescription) as a text",
                        "expected a string")
                    continue
                }
                result[locale] = text
            }
            return result.isEmpty ? nil : .object(result)
        default:
            note(
                .notConverted, path, "\(value.kindDescription) as a text",
                "expected a string or an object of strings by locale")
            return nil
        }
    }

    /// The name of a page, panel, question, column or item as survey-core 3.0.4 reads it: trimmed
    /// (its `getValidName`), so `" q1 "` stores its answer under `q1`. A calculated value's name is
    /// kept as written.
    /// The name `value` gives an element: trimmed, and for a page, panel or question (`isSurveyElement`)
    /// as survey-core makes it (``surveyCoreName(_:isQuestion:)``); `nil` when there is none.
    func elementName(_ value: JSONValue?, isSurveyElement: Bool = false, isQuestion: Bool = false) -> String? {
        guard case .string(let text)? = value else { return name(value) }
        guard isSurveyElement else { return name(.string(text.trimmingCharacters(in: .whitespacesAndNewlines))) }
        return name(.string(Self.surveyCoreName(text, isQuestion: isQuestion)))
    }

    /// The name survey-core 3.0.4 gives a page, panel or question named `text`
    /// (`SurveyElement.getValidName`): trimmed, without its first `|` (`settings.itemValueSeparator`);
    /// a question's (`makeNameValid`) also without `{` and `}` and without leading `#`.
    static func surveyCoreName(_ text: String, isQuestion: Bool) -> String {
        var name = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if let bar = name.firstIndex(of: "|") { name.remove(at: bar) }
        guard isQuestion else { return name }
        name = name.trimmingCharacters(in: .whitespacesAndNewlines).filter { $0 != "{" && $0 != "}" }
        while name.first == "#" { name.removeFirst() }
        return name
    }

    func name(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let text) where !text.isEmpty: return text
        case .number(let number): return JSONValue.format(number: number)
        default: return nil
        }
    }

    func describe(_ value: JSONValue) -> String {
        JSONWriter.string(from: value)
    }
}

extension JSONValue {
    /// A scalar written as text (`3` → "3", `true` → "true").
    static func format(text value: JSONValue) -> String {
        switch value {
        case .string(let text): return text
        case .number(let number): return format(number: number)
        case .bool(let flag): return flag ? "true" : "false"
        default: return JSONWriter.string(from: value)
        }
    }
}

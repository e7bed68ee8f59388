import SurveyBuiltins
import SurveyCore
import Testing

/// `repeat`: a group of items answered once per instance.
struct RepeatTypeTests {
    static let options: JSONValue = [
        "count": "{children}", "itemTitle": "Child {panelIndex}: {panel.name}",
        "items": [
            ["name": "name", "required": true],
            ["name": "age", "type": "number", "options": ["min": 0, "max": 25]],
            ["name": "school", "visibleIf": "{panel.age} >= 6 and {country} = 'fr'"],
        ],
    ]

    static func context(count: JSONValue, country: JSONValue = "fr", answer: JSONValue? = nil, final: Bool = false)
        -> PresentationContext
    {
        var context = PresentationContext.english
        context.expressionValues = ["count": count, "name:country": country]
        context.answer = answer
        context.isFinalCheck = final
        return context
    }

    @Test func itDeclaresTheNamesItReads() throws {
        let question = try configure(RepeatType(), Self.options)
        #expect(question.expressions == ["count": "{children}", "name:country": "{country}"])
        #expect(question.checksAgainOnNext)
    }

    @Test func instancesAreCheckedItemByItemAndHiddenItemsDropped() throws {
        let question = try configure(RepeatType(), Self.options)
        let answer: JSONValue = [
            ["name": " Ada ", "age": "8", "school": "St Mary"], ["name": "Bob", "age": 3, "school": "x"],
        ]
        #expect(
            try question.normalize(answer, in: Self.context(count: 2, final: true))
                == [["name": "Ada", "age": 8, "school": "St Mary"], ["name": "Bob", "age": 3]])
        // Outside France the school item is hidden for everyone.
        #expect(
            try question.normalize(answer, in: Self.context(count: 2, country: "de", final: true))
                == [["name": "Ada", "age": 8], ["name": "Bob", "age": 3]])
        let wrongAge = expectError(question, [["name": "Ada", "age": 30]], Self.context(count: 2))
        #expect(wrongAge?.code == "aboveMaximum" && wrongAge?.field == "0.age")
        #expect(expectError(question, [["nom": "Ada"]], Self.context(count: 2))?.field == "0.nom")
        #expect(expectError(question, ["Ada"], Self.context(count: 2))?.code == "wrongShape")
        #expect(expectError(question, ["name": "Ada"], Self.context(count: 2))?.code == "wrongShape")
    }

    /// `{panelIndex}` counts from 0 in an item's condition, as in survey-core's expressions.
    @Test func panelIndexCountsFromZeroInConditions() throws {
        let question = try configure(
            RepeatType(),
            ["count": 2, "items": [["name": "name"], ["name": "note", "visibleIf": "{panelIndex} = 0"]]])
        var context = PresentationContext.english
        context.expressionValues = ["count": 2]
        context.isFinalCheck = true
        #expect(
            try question.normalize([["name": "A", "note": "first"], ["name": "B", "note": "x"]], in: context)
                == [["name": "A", "note": "first"], ["name": "B"]])
    }

    /// A repeat inside an instance reads that instance as `{parentPanel.x}`; `{visiblePanelIndex}` is
    /// `{panelIndex}` (every instance shows).
    @Test func aNestedRepeatReadsItsParentInstance() throws {
        let inner: JSONValue = [
            "count": 1,
            "items": [
                ["name": "name"], ["name": "badge", "visibleIf": "{parentPanel.kind} = 'staff'"],
                ["name": "first", "visibleIf": "{visiblePanelIndex} = 0"],
            ],
        ]
        let question = try configure(
            RepeatType(),
            ["count": 2, "items": [["name": "kind"], ["name": "members", "type": "repeat", "options": inner]]])
        #expect(question.expressions.isEmpty)
        var context = PresentationContext.english
        context.expressionValues = ["count": 2]
        let member: JSONValue = [["name": "x", "badge": "B1", "first": "y"]]
        #expect(
            try question.normalize(
                [["kind": "staff", "members": member], ["kind": "guest", "members": member]], in: context)
                == [
                    ["kind": "staff", "members": [["name": "x", "badge": "B1", "first": "y"]]],
                    ["kind": "guest", "members": [["name": "x", "first": "y"]]],
                ])
    }

    /// An item's `expression` validators read its instance and refuse it on Next (not while filling in).
    @Test func anItemsExpressionValidatorRefusesItsInstanceOnNext() throws {
        let options: JSONValue = [
            "count": 1,
            "items": [
                ["name": "lo", "type": "number"],
                [
                    "name": "hi", "type": "number",
                    "validators": [
                        ["type": "expression", "expression": "{panel.hi} > {panel.lo}", "text": "Too low."]
                    ],
                ],
            ],
        ]
        let question = try configure(RepeatType(), options)
        var context = PresentationContext.english
        context.expressionValues = ["count": 1]
        #expect(try question.normalize([["lo": 5, "hi": 2]], in: context) == [["lo": 5, "hi": 2]])
        context.isFinalCheck = true
        let refused = expectError(question, [["lo": 5, "hi": 2]], context)
        #expect(refused?.code == "expressionFailed" && refused?.field == "0.hi" && refused?.message == "Too low.")
        #expect(try question.normalize([["lo": 5, "hi": 9]], in: context) == [["lo": 5, "hi": 9]])
        let email: JSONValue = ["count": 1, "items": [["name": "a", "validators": [["type": "email"]]]]]
        #expect(throws: SurveyError.self) { try configure(RepeatType(), email) }
    }

    @Test func whileFillingInAnAnswerMayBeIncompleteButNotOnNext() throws {
        let question = try configure(RepeatType(), Self.options)
        #expect(try question.normalize([["age": 4]], in: Self.context(count: 2)) == [["age": 4]])
        let missing = expectError(question, [["age": 4], ["name": "Bob"]], Self.context(count: 2, final: true))
        #expect(missing?.code == "missingField" && missing?.field == "0.name" && missing?.arguments["field"] == "name")
        let few = expectError(question, [["name": "Ada"]], Self.context(count: 2, final: true))
        #expect(few?.code == "tooFewEntries" && few?.arguments["min"] == "2")
        let many = expectError(question, [["name": "A"], ["name": "B"], ["name": "C"]], Self.context(count: 2))
        #expect(many?.code == "tooManyEntries" && many?.arguments["max"] == "2")
    }

    @Test func theInputSaysHowManyAndWhatEachInstanceHides() throws {
        let question = try configure(RepeatType(), Self.options)
        let answer: JSONValue = [["name": "Ada", "age": 8], ["name": "Bob", "age": 3]]
        guard case .repeating(let group) = question.input(in: Self.context(count: 3, answer: answer)) else {
            Issue.record("not a repeat")
            return
        }
        #expect(group.count == 3 && group.fields.map(\.name) == ["name", "age", "school"])
        #expect(group.instanceTitles == ["Child 1: Ada", "Child 2: Bob", "Child 3: "])
        #expect(group.hiddenFields == [[], ["school"]])
        #expect(question.input(in: Self.context(count: "x")).jsonValue["count"] == 0)
        #expect(question.input(in: Self.context(count: 1e12)).jsonValue["count"] == 10000)
    }

    @Test func anOpenRepeatHasBoundsAndALoopHasItsValues() throws {
        let open = try configure(
            RepeatType(), ["minCount": 1, "maxCount": 2, "items": [["name": "pet", "required": true]]])
        var context = PresentationContext.english
        context.isFinalCheck = true
        #expect(expectError(open, [], context) == nil)
        #expect(try open.normalize([["pet": "cat"]], in: context) == [["pet": "cat"]])
        #expect(expectError(open, [["pet": "a"], ["pet": "b"], ["pet": "c"]], context)?.code == "tooManyEntries")
        let loop = try configure(
            RepeatType(),
            ["eachOf": "brands", "itemTitle": "About {item}", "items": [["name": "score", "type": "rating"]]])
        #expect(loop.expressions == ["each": "{brands}", "eachLabel": "displayValues('brands')"])
        var chosen = PresentationContext.english
        chosen.expressionValues = ["each": ["acme", "globex"]]
        guard case .repeating(let group) = loop.input(in: chosen) else {
            Issue.record("not a repeat")
            return
        }
        #expect(group.count == 2 && group.instanceTitles == ["About acme", "About globex"])
        // `{item}` is the choice as the respondent read it: its label.
        chosen.expressionValues["eachLabel"] = ["Acme Corp", "Globex"]
        guard case .repeating(let labelled) = loop.input(in: chosen) else {
            Issue.record("not a repeat")
            return
        }
        #expect(labelled.instanceTitles == ["About Acme Corp", "About Globex"])
    }

    @Test func theSummaryCountsInstancesPerItem() throws {
        let question = try configure(RepeatType(), Self.options)
        let summary = question.summarize(
            [[["name": "Ada", "age": 8], ["name": "Bob"]], [["name": "Cy"]], .null], in: english)
        #expect(summary.answered == 2 && summary.mean == 1.5)
        #expect(summary.buckets.map(\.count) == [3, 1, 0])
    }

    @Test(arguments: [
        OptionErrorCase([:], .missingField, "$.options"),
        OptionErrorCase(["items": [["name": "a", "type": "voice"]]], .invalidOptions, "$.options.items[0].type"),
        OptionErrorCase(
            ["items": [["name": "a", "visibleIf": "{panel.a} ="]]], .invalidValue, "$.options.items[0].visibleIf"),
        OptionErrorCase(["items": [["name": "a"]], "count": true], .invalidValue, "$.options.count"),
        OptionErrorCase(["items": [["name": "a"]], "count": 2, "eachOf": "q"], .invalidOptions, "$.options.eachOf"),
        OptionErrorCase(
            ["items": [["name": "a"]], "minCount": 3, "maxCount": 2], .invalidOptions, "$.options.maxCount"),
        OptionErrorCase(["items": [["name": "a"]], "count": 20000], .invalidValue, "$.options.count"),
        OptionErrorCase(["items": [["name": "a"], ["name": "a"]]], .invalidOptions, "$.options.items[1]"),
    ])
    func rejectsInvalidOptions(invalid: OptionErrorCase) {
        invalid.check(RepeatType())
    }

    /// Items' `defaultValue` and `defaultValueExpression` (SurveyJS's template question defaults).
    @Test func itemDefaultsFillEveryInstanceThatLeavesTheItemOut() throws {
        let question = try configure(
            RepeatType(),
            [
                "startCount": 2,
                "items": [
                    ["name": "v", "type": "number", "defaultValueExpression": "{base} + {panelIndex}"],
                    ["name": "w", "defaultValue": "x"], ["name": "t"],
                ],
            ])
        #expect(question.hasDefaultAnswer)
        #expect(question.expressions == ["name:base": "{base}"])
        var context = PresentationContext.english
        context.expressionValues = ["name:base": 7]
        #expect(question.defaultAnswer(in: context) == [["v": 7, "w": "x"], ["v": 8, "w": "x"]])
        // An instance the respondent gives fills what it leaves out with the defaults (as a panel
        // holds them in survey-core until the respondent types over them); an item sent empty stays so.
        #expect(try question.normalize([["t": "a"]], in: context) == [["v": 7, "w": "x", "t": "a"]])
        #expect(try question.normalize([["v": 1]], in: context) == [["v": 1, "w": "x"]])
        #expect(try question.normalize([["v": 1, "w": .null], ["w": ""]], in: context) == [["v": 1], ["v": 8]])
    }

    @Test func anItemsDescriptionIsItsFieldsDescription() throws {
        let question = try configure(
            RepeatType(),
            ["items": [["name": "first", "title": "First name", "description": ["en": "As on the passport"]]]])
        guard case .repeating(let input) = question.input(in: .english) else {
            Issue.record("expected a repeat input")
            return
        }
        #expect(input.fields.first?.description == "As on the passport")
        #expect(input.fields.first?.jsonValue["description"] == "As on the passport")
    }

    @Test func instancesThatExistBeforeAnAnswerHoldTheirComputedItems() throws {
        // survey-core's panels (panelCount) hold their expression questions' values untouched.
        let question = try configure(
            RepeatType(),
            ["startCount": 2, "items": [["name": "t"], ["name": "n", "expression": "{panelIndex} + 1"]]])
        #expect(question.hasDefaultAnswer)
        #expect(question.defaultAnswer(in: .english) == [["n": 1], ["n": 2]])
        // An open repeat without startCount has no instance to compute.
        #expect(!(try configure(RepeatType(), ["items": [["name": "n", "expression": "1"]]]).hasDefaultAnswer))
    }

    @Test func instanceVisibleIfHidesInstancesWhichAreNeitherRequiredNorCleared() throws {
        let question = try configure(
            RepeatType(),
            [
                "instanceVisibleIf": "{panelIndex} > 0 or {show} = true",
                "items": [
                    ["name": "n", "required": true], ["name": "t", "visibleIf": "{panel.n} = 'x'"],
                    ["name": "v", "expression": "{visiblePanelIndex}"],
                ],
            ])
        #expect(question.expressions == ["name:show": "{show}"])
        var context = PresentationContext.english
        context.isFinalCheck = true
        // Instance 0 hidden: its missing required item is not asked, its hidden item's answer stays.
        let answer: JSONValue = [["t": "kept"], ["n": "a"], ["n": "b"]]
        #expect(
            try question.normalize(answer, in: context) == [
                ["t": "kept", "v": -1], ["n": "a", "v": 0], ["n": "b", "v": 1],
            ])
        guard
            case .repeating(let input) = question.input(
                in: {
                    var c = context; c.answer = answer; return c
                }())
        else {
            Issue.record("expected a repeat input")
            return
        }
        #expect(input.hiddenFields.first == ["n", "t", "v"])
        // Shown: instance 0 must have its required item.
        context.expressionValues = ["name:show": true]
        #expect(throws: AnswerError.self) { try question.normalize(answer, in: context) }
        #expect(try question.normalize([["n": "x", "t": "y"]], in: context) == [["n": "x", "t": "y", "v": 0]])
    }

    @Test func withoutACountOrDefaultsThereIsNoDefaultAnswer() throws {
        #expect(!(try configure(RepeatType(), ["items": [["name": "w", "defaultValue": "x"]]]).hasDefaultAnswer))
        #expect(!(try configure(RepeatType(), ["count": 2, "items": [["name": "w"]]]).hasDefaultAnswer))
        #expect(optionError(RepeatType(), ["items": [["name": "n", "type": "number", "defaultValue": "x"]]]) != nil)
        #expect(
            optionError(RepeatType(), ["items": [["name": "n", "expression": "1", "defaultValueExpression": "2"]]])
                != nil)
    }

    @Test func anOtherTextMayComeAsTheCommentOfTheOtherValue() throws {
        let question = try configure(
            RepeatType(),
            ["items": [["name": "diet", "type": "single-choice", "options": ["choices": ["vegan"], "other": true]]]])
        #expect(
            try question.normalize([["diet": "other", "diet-Comment": " Pescatarian "]], in: .english)
                == [["diet": "Pescatarian"]])
        #expect(try question.normalize([["diet": "vegan", "diet-Comment": "x"]], in: .english) == [["diet": "vegan"]])
    }

    @Test func aRepeatsDefaultAnswerFollowsWhatItReadsUntilAnswered() throws {
        let survey = try SurveyLoader(registry: .builtins()).load(
            text: """
                {"formatVersion": 1, "id": "r", "title": "R", "steps": [{"id": "p", "type": "page", "steps": [
                  {"id": "base", "type": "number"},
                  {"id": "rows", "type": "repeat", "options": {"count": 1, "items": [
                    {"name": "v", "type": "number", "defaultValueExpression": "{base} + 1"}]}}]},
                  {"id": "g", "type": "page", "visibleIf": "{rows[0].v} = 8", "steps": [{"id": "a", "type": "text"}]}]}
                """, source: "r.json")
        var session = SurveySession(survey: survey)
        #expect(session.answer(for: "rows") == [["v": 1]])
        try session.answer(7, for: "base")
        #expect(session.answer(for: "rows") == [["v": 8]])
        try session.answer([["v": 2]], for: "rows")
        try session.answer(9, for: "base")
        #expect(session.answer(for: "rows") == [["v": 2]])
    }
}

func expectError(_ question: ConfiguredQuestion, _ answer: JSONValue, _ context: PresentationContext) -> AnswerError? {
    do {
        _ = try question.normalize(answer, in: context)
        return nil
    } catch {
        return error
    }
}

import SurveyCore
import SurveyPluginLoader
import Testing

@Suite struct ColorPickerPluginTests {
    let plugin: LoadedPlugin
    let type: AnyQuestionType

    init() throws {
        plugin = try PluginFixtures.load("ColorPicker")
        type = try #require(plugin.questionTypes.first)
    }

    @Test func declaresItsTypeAndFunction() {
        #expect(plugin.name == "color-picker")
        #expect(plugin.version == "1.0.0")
        #expect(plugin.questionTypes.map(\.typeID) == ["color"])
        #expect(type.origin == PluginFixtures.library("ColorPicker"))
        #expect(type.summary.contains("#RRGGBB"))
        #expect(plugin.functions.map(\.name) == ["brightness"])
        #expect(plugin.optionsSchemas["color"]?["type"] == "object")
    }

    @Test func normalizesAnswers() throws {
        let question = try PluginFixtures.configure(type, nil)
        #expect(try question.normalize("#abc") == "#AABBCC")
        #expect(try question.normalize("ff8800") == "#FF8800")
        #expect(
            throws: AnswerError(
                code: "invalidColor", message: "Enter a colour like #FF8800.", arguments: ["value": "red"],
                isLocalized: true)
        ) {
            try question.normalize("red")
        }
        let wrongShape = PluginFixtures.error { () throws(AnswerError) in _ = try question.normalize(42) }
        #expect(wrongShape?.code == "wrongShape")
    }

    @Test func describesItsInput() throws {
        let free = try PluginFixtures.configure(type, [:])
        guard case .freeText(let text) = free.input(in: .english) else {
            Issue.record("expected free text, got \(free.input(in: .english))")
            return
        }
        #expect(text.placeholder == "#RRGGBB")
        #expect(text.presentation == "color")

        let palette = try PluginFixtures.configure(type, ["palette": ["#f00", "#00FF00"]])
        let input = palette.input(in: PresentationContext(locale: "fr", defaultLocale: "en"))
        #expect(input.choiceInput?.choices.map(\.value) == ["#FF0000", "#00FF00"])
        #expect(try palette.parse(line: "2", in: .english) == "#00FF00")
        #expect(throws: AnswerError.self) { try palette.normalize("#0000FF") }
    }

    @Test func optionErrorsNameTheJSONPath() {
        let error = PluginFixtures.error { () throws(SurveyError) in
            _ = try PluginFixtures.configure(type, ["palette": ["#f00", "blue"]])
        }
        #expect(error?.kind == .invalidValue || error?.kind == .invalidOptions)
        #expect(error?.path?.description == "$.steps[0].options.palette[1]")
        #expect(error?.stepID == "q1")
        #expect(error?.message.contains("'blue'") == true)

        let unknown = PluginFixtures.error { () throws(SurveyError) in
            _ = try PluginFixtures.configure(type, ["pallete": []])
        }
        #expect(unknown?.path?.description == "$.steps[0].options.pallete")
        #expect(unknown?.message.contains("did you mean 'palette'") == true)
    }

    @Test func summarizesThroughThePlugin() throws {
        let question = try PluginFixtures.configure(type, nil)
        let summary = question.summarize(["#FF0000", "#ff0000", "#00FF00", nil], in: .english)
        #expect(summary.answered == 3)
        #expect(summary.buckets.map(\.value) == ["#00FF00", "#FF0000"])
        #expect(summary.buckets.map(\.count) == [1, 2])
    }

    @Test func callsItsSwiftFunctionThroughLibffi() throws {
        let brightness = try #require(plugin.functions.first)
        let context = FunctionContext(today: "2025-01-01")
        #expect(try brightness.call(["#FFFFFF"], context: context) == 1)
        #expect(try brightness.call(["#000000"], context: context) == 0)
        #expect(try brightness.call(["not a colour"], context: context) == .null)
        #expect(try brightness.call([12], context: context) == .null)
    }
}

@Suite struct CStarPluginTests {
    let type: AnyQuestionType

    init() throws {
        let plugin = try PluginFixtures.load("CStarPlugin")
        #expect(plugin.name == "c-star")
        type = try #require(plugin.questionTypes.first)
    }

    @Test func isAnEmojiRating() throws {
        #expect(type.typeID == "emoji-rating")
        let question = try PluginFixtures.configure(type, ["faces": 3])
        #expect(
            question.input(in: .english)
                == .number(
                    NumberInput(
                        minimum: 1, maximum: 3, step: 1, isInteger: true, minimumLabel: "😞", maximumLabel: "😍",
                        presentation: "emoji")))
        guard case .number(let french) = question.input(in: PresentationContext(locale: "fr", defaultLocale: "en"))
        else {
            Issue.record("expected a number input")
            return
        }
        #expect(french.minimumLabel == "Pas du tout")
    }

    @Test func normalizesAndRejects() throws {
        let question = try PluginFixtures.configure(type, nil)
        #expect(try question.normalize(4) == 4)
        #expect(try question.normalize("2") == 2)
        #expect(
            throws: AnswerError(
                code: "outOfRange", message: "Choose a face from 1 to 5.", arguments: ["min": "1", "max": "5"],
                isLocalized: true)
        ) { try question.normalize(6) }
        #expect(throws: AnswerError.self) { try question.normalize("lots") }
        // No parse_line or summarize callbacks: the host's defaults for a number input apply.
        #expect(try question.parse(line: " 3 ", in: .english) == 3)
        #expect(question.summarize([1, 5, 3], in: .english).mean == 3)
    }

    @Test func rejectsBadOptionsWithThePath() {
        let error = PluginFixtures.error { () throws(SurveyError) in
            _ = try PluginFixtures.configure(type, ["faces": 4])
        }
        #expect(error?.kind == .invalidOptions)
        #expect(error?.path?.description == "$.steps[0].options.faces")
        // The type's options_schema ({"faces": {"enum": [3, 5]}}) is enforced before check_options runs.
        #expect(error?.message == "option 'faces' must be one of 3, 5")
    }
}

@Suite struct HealthFunctionsTests {
    let functions: ExpressionFunctionRegistry
    let context = FunctionContext(today: "2025-01-01")

    init() throws {
        let plugin = try PluginFixtures.load("HealthFunctions")
        #expect(plugin.questionTypes.isEmpty)
        #expect(plugin.functionSignatures["bmi"] == "bmi(double, double) -> double")
        var types = QuestionTypeRegistry()
        var functions = ExpressionFunctionRegistry.standard
        try [plugin].install(into: &types, functions: &functions)
        self.functions = functions
    }

    @Test func callsTypedFunctions() throws {
        let bmi = try #require(functions.function(named: "bmi"))
        #expect(bmi.arity == 2...2)
        let value = try bmi.call([70, 175], context: context).numberValue ?? 0
        #expect(abs(value - 22.857) < 0.001)
        #expect(try functions.function(named: "initials")?.call(["Ada King-Lovelace"], context: context) == "AKL")
        #expect(try functions.function(named: "is_adult")?.call([20], context: context) == true)
        #expect(try functions.function(named: "is_adult")?.call([17], context: context) == false)
    }

    @Test(arguments: [
        ("bmi", [JSONValue.null, 170]), ("bmi", ["70", 170]), ("bmi", [70, 0]), ("initials", [42]),
        ("is_adult", [17.5]), ("is_adult", [true]),
    ])
    func unconvertibleArgumentsGiveNull(name: String, arguments: [JSONValue]) throws {
        #expect(try functions.function(named: name)?.call(arguments, context: context) == .null)
    }

    @Test func worksInsideAVisibleIfExpression() throws {
        let names = ["weight", "height"]
        let expression = try Expression(
            "bmi({weight}, {height}) >= 25 and initials('ada lovelace') = 'AL'", functions: functions
        ) {
            names.firstIndex(of: $0)
        }
        #expect(expression.isTrue([90, 180], context: context))
        #expect(!expression.isTrue([60, 180], context: context))
        #expect(!expression.isTrue([nil, 180], context: context))
    }
}

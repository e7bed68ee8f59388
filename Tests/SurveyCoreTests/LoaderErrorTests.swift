import SurveyCore
import Testing

@Suite struct LoaderErrorTests {
    func single(_ text: String) -> SurveyError? {
        let errors = loadErrors(text)
        #expect(errors.count == 1, "expected one error, got \(errors)")
        return errors.first
    }

    @Test func malformedJSONHasLineAndColumn() throws {
        let error = try #require(single("{\"formatVersion\": 1,\n  \"id\": \"x\"\n  \"title\": \"t\"}"))
        #expect(error.kind == .syntax)
        #expect(error.position == SourcePosition(line: 3, column: 3))
        #expect(error.description.hasPrefix("test.json:3:3: invalid JSON"))
    }

    @Test func unsupportedOrMissingFormatVersion() throws {
        let wrong = try #require(single(#"{"formatVersion": 9, "id": "x", "title": "t", "steps": []}"#))
        #expect(wrong.kind == .unsupportedFormatVersion)
        #expect(wrong.description.contains("unsupported formatVersion 9"))
        #expect(wrong.position == SourcePosition(line: 1, column: 19))
        let missing = try #require(single(#"{"id": "x", "title": "t", "steps": []}"#))
        #expect(missing.kind == .unsupportedFormatVersion)
    }

    @Test func unknownTypeSuggestsAndListsRegisteredTypes() throws {
        let error = try #require(
            single(surveyJSON([#"{"id": "q", "type": "t-choise", "options": {"choices": ["a"]}}"#])))
        #expect(error.kind == .unknownType)
        #expect(error.stepID == "q")
        #expect(error.message.contains("did you mean 't-choice'?"))
        #expect(error.message.contains("registered types: t-choice, t-note, t-text"))
        #expect(error.path?.description == "$.steps[0].type")
        #expect(error.position?.line == 2)
    }

    @Test func missingAndDuplicateIDs() {
        let errors = loadErrors(
            surveyJSON([
                #"{"id": "a", "type": "t-text"}"#,
                #"{"type": "t-text"}"#,
                #"{"id": "a", "type": "t-text"}"#,
                #"{"id": "p", "type": "page", "steps": [{"id": "a", "type": "t-text"}]}"#,
            ]))
        #expect(errors.map(\.kind) == [.missingField, .duplicateID, .duplicateID])
        #expect(errors[0].description.contains("missing required member 'id'"))
        #expect(errors[1].path?.description == "$.steps[2].id")
        #expect(errors[2].path?.description == "$.steps[3].steps[0].id")
        #expect(errors[1].message.contains("$.steps[0]"))
    }

    @Test func wrongOptionTypesNameThePathAndExpectedType() throws {
        let error = try #require(
            single(surveyJSON([#"{"id": "q", "type": "t-text", "options": {"maxLength": "ten"}}"#])))
        #expect(error.kind == .invalidOptions)
        #expect(error.path?.description == "$.steps[0].options.maxLength")
        #expect(error.message.contains("must be an integer, got a string"))
        let range = try #require(single(surveyJSON([#"{"id": "q", "type": "t-text", "options": {"maxLength": 0}}"#])))
        #expect(range.message.contains("between 1 and 1000, got 0"))
        let unknown = try #require(single(surveyJSON([#"{"id": "q", "type": "t-text", "options": {"maxLenght": 3}}"#])))
        #expect(unknown.kind == .unknownField)
        #expect(unknown.message.contains("did you mean 'maxLength'?"))
    }

    @Test func unknownStepMembersAreTyposNotSilence() throws {
        let error = try #require(single(surveyJSON([#"{"id": "q", "type": "t-text", "visibleIF": "true"}"#])))
        #expect(error.kind == .unknownField)
        #expect(error.message.contains("did you mean 'visibleIf'?"))
    }

    @Test func expressionErrorsCarryStepExpressionAndColumn() throws {
        let syntax = try #require(
            single(
                surveyJSON([
                    #"{"id": "a", "type": "t-text"}"#, #"{"id": "b", "type": "t-text", "visibleIf": "{a} = "}"#,
                ])))
        #expect(syntax.kind == .expressionSyntax)
        #expect(syntax.stepID == "b")
        #expect(syntax.message.contains("\"{a} = \" at column 7"))
        let reference = try #require(
            single(surveyJSON([#"{"id": "b", "type": "t-text", "visibleIf": "{nope} = 1"}"#])))
        #expect(reference.kind == .unknownReference)
        #expect(reference.message.contains("unknown reference {nope}"))
        let target = try #require(
            single(surveyJSON([#"{"id": "b", "type": "t-text", "branches": [{"goto": "bb"}]}"#])))
        #expect(target.kind == .unknownReference)
        #expect(target.message.contains("did you mean 'b'?"))
        let piping = try #require(single(surveyJSON([#"{"id": "b", "type": "t-text", "title": "Hi {name}"}"#])))
        #expect(piping.kind == .unknownReference)
    }

    @Test func dependencyCyclesAreNamed() throws {
        let error = try #require(
            single(
                surveyJSON(
                    [#"{"id": "q", "type": "t-text"}"#],
                    calculated:
                        #"[{"name": "a", "expression": "{b} + 1"}, {"name": "b", "expression": "{c} + {q}"}, {"name": "c", "expression": "{a}"}]"#
                )))
        #expect(error.kind == .dependencyCycle)
        #expect(error.message.contains("a → b → c → a"))
    }

    @Test func stepsAreCheckedWhileStreaming() throws {
        let duplicate = try #require(
            single(
                "{\"formatVersion\": 1, \"id\": \"s\", \"title\": \"T\", \"steps\": [\n  {\"id\": \"a\", \"type\": \"t-text\", \"id\": \"b\"}]}"
            ))
        #expect(duplicate.kind == .syntax)
        #expect(duplicate.message.contains("duplicate member name \"id\""))
        #expect(duplicate.position == SourcePosition(line: 2, column: 33))
        let notObject = try #require(single(surveyJSON([#"{"id": "a", "type": "t-text"}"#, "42"])))
        #expect(notObject.message.contains("a step must be a JSON object, got an integer"))
        #expect(notObject.path?.description == "$.steps[1]")
        let notArray = try #require(
            single(#"{"formatVersion": 1, "id": "s", "title": "T", "steps": {"id": "a"}}"#))
        #expect(notArray.message.contains("'steps' must be an array, got an object"))
        let nested = loadErrors(
            surveyJSON([
                #"{"id": "p", "type": "page", "steps": [{"id": "q", "type": "page", "steps": [{"id": "r", "type": "t-text"}]}]}"#
            ]))
        #expect(nested.contains { $0.message.contains("pages cannot be nested inside pages") })
        let empty = try #require(single(#"{"formatVersion": 1, "id": "s", "title": "T", "steps": []}"#))
        #expect(empty.message.contains("a survey needs at least one step"))
    }

    @Test func severalProblemsAreAllReported() {
        let errors = loadErrors(
            surveyJSON([
                #"{"id": "a", "type": "nope"}"#,
                #"{"id": "a", "type": "t-text", "visibleIf": "{zzz}"}"#,
            ]))
        #expect(Set(errors.map(\.kind)) == [.unknownType, .duplicateID, .unknownReference])
        #expect(errors.allSatisfy { $0.position != nil && $0.file == "test.json" })
    }

    @Test func definitionRoundTripIsByteStable() throws {
        let survey = try loadSurvey(petSurvey)
        let text = survey.definition.jsonText()
        let again = try loadSurvey(text)
        #expect(again.definition == survey.definition)
        #expect(again.definition.jsonText() == text)
        let withSchema = try loadSurvey(
            #"{"$schema": "../schema/survey.schema.json", "formatVersion": 1, "id": "s", "title": "T", "version": 3, "steps": [{"id": "a", "type": "t-text"}]}"#
        )
        #expect(withSchema.definition.schema == "../schema/survey.schema.json")
        #expect(withSchema.definition.jsonText().contains(#""$schema": "../schema/survey.schema.json""#))
    }

    @Test func registryRejectsDuplicates() {
        var registry = testRegistry()
        #expect(throws: RegistryError.self) { try registry.register(FreeTextType(), origin: "plugin.so") }
        do {
            try registry.register(FreeTextType(), origin: "plugin.so")
        } catch {
            #expect(error.description == "question type 't-text' from plugin.so is already registered by built-in")
        }
        #expect(registry.typeIDs == ["t-choice", "t-note", "t-text"])
    }
}

/// A misspelt member on a step does not hide that step's other problems.
@Test func anUnknownMemberDoesNotHideTheStepsOtherErrors() {
    let errors = loadErrors(
        surveyJSON([
            #"{"id": "a", "type": "t-text", "title": "A", "visibleIff": "{b} = 1", "options": {"maxLength": 5000}}"#
        ]))
    #expect(errors.contains { $0.kind == .unknownField && $0.message.contains("'visibleIff'") })
    #expect(errors.contains { $0.path?.description == "$.steps[0].options.maxLength" })
}

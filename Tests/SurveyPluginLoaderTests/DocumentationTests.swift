import Foundation
import SurveyCore
import SurveyPluginLoader
import Testing

/// The complete C plugin printed in docs/plugin-abi.md compiles against the installed header and works.
@Test func thePluginInTheABIDocumentWorks() throws {
    let document = try String(contentsOfFile: PluginFixtures.repositoryRoot + "/docs/plugin-abi.md", encoding: .utf8)
    let section = try #require(document.range(of: "## A complete C plugin"))
    let rest = document[section.upperBound...]
    let start = try #require(rest.range(of: "```c\n"))
    let end = try #require(rest[start.upperBound...].range(of: "```"))
    let source = String(rest[start.upperBound..<end.lowerBound])

    let directory = try PluginFixtures.temporaryDirectory()
    let path = try PluginFixtures.compile(source, name: "yes-no-maybe", in: directory)
    let plugins = try PluginLoader().load(paths: [path], environment: [:])
    var types = QuestionTypeRegistry()
    var functions = ExpressionFunctionRegistry.standard
    try plugins.install(into: &types, functions: &functions)

    let question = try PluginFixtures.configure(try #require(types.type(withID: "yes-no-maybe")), nil)
    #expect(question.input(in: .english).choiceInput?.choices.map(\.value) == ["yes", "no", "maybe"])
    #expect(try question.parse(line: "3", in: .english) == "maybe")
    #expect(try question.normalize("no") == "no")
    #expect(throws: AnswerError(code: "notAChoice", message: "Answer yes, no or maybe.", isLocalized: true)) {
        try question.normalize("perhaps")
    }
    #expect(question.summarize(["yes", "yes", "no"], in: .english).buckets.map(\.count) == [2, 1, 0])
    let bmi = try #require(functions.function(named: "bmi"))
    #expect(abs((try bmi.call([80, 200], context: .current()).numberValue ?? 0) - 20) < 1e-9)
}

/// The JSON form of every input primitive reads back to the same value.
@Test(arguments: [
    InputPrimitive.none,
    .freeText(
        TextInput(isMultiline: true, minimumLength: 2, maximumLength: 9, placeholder: "…", presentation: "email")),
    .singleChoice(
        ChoiceInput(
            choices: [
                Choice(value: "a", label: "A", iconName: "star", isOther: false, visibleIf: "{x} > 1"),
                Choice(value: "other", label: "Other", isOther: true),
            ], minimumSelections: 1, maximumSelections: 1, isShuffled: true, presentation: "dropdown")),
    .multipleChoice(ChoiceInput(choices: [Choice(value: "1", label: "One")], isOrdered: true)),
    .number(
        NumberInput(
            minimum: 0, maximum: 10, step: 0.5, isInteger: false, minimumLabel: "low", maximumLabel: "high",
            presentation: "nps")),
    .boolean(BooleanInput(trueLabel: "Oui", falseLabel: "Non", presentation: "thumbs")),
    .date(DateInput(earliest: "2000-01-01", latest: nil)),
    .composite(
        CompositeInput(
            fields: [
                CompositeField(name: "email", label: "Email", isRequired: true, input: .freeText(TextInput())),
                CompositeField(name: "age", label: "Age", input: .number(NumberInput(isInteger: true))),
            ], presentation: "form")),
    .fileReference(FileInput(allowedFormats: ["m4a"], maximumDurationSeconds: 60, presentation: "audio")),
])
func inputPrimitiveJSONRoundTrips(_ input: InputPrimitive) throws {
    let text = JSONWriter.string(from: input.jsonValue)
    #expect(try InputPrimitive(json: try JSONParser.parse(text)) == input)
    #expect(input.jsonValue["kind"]?.stringValue == input.kindName)
}

@Test func inputPrimitiveJSONErrorsNameThePath() {
    let error = PluginFixtures.error { () throws(SurveyError) in
        _ = try InputPrimitive(json: ["kind": "composite", "fields": [["name": "a", "input": ["kind": "slider"]]]])
    }
    #expect(error?.path?.description == "$.fields[0].input.kind")
    #expect(error?.message == "unknown input kind 'slider'")
}

/// The Swift plugin package shown in docs/plugin-abi.md is the one `.ci/run` builds and loads.
@Test func theSwiftPluginPackageInTheDocumentIsTheRealOne() throws {
    let root = PluginFixtures.repositoryRoot
    let document = try String(contentsOfFile: root + "/docs/plugin-abi.md", encoding: .utf8)
    let manifest = try String(contentsOfFile: root + "/Plugins/SwiftPluginPackage/Package.swift", encoding: .utf8)
    #expect(document.contains("```swift\n" + manifest + "```"))
    let source = try String(
        contentsOfFile: root + "/Plugins/SwiftPluginPackage/Sources/TriStatePlugin/TriStatePlugin.swift",
        encoding: .utf8)
    #expect(source.contains("@_cdecl(\"survey_plugin_entry\") public func surveyPluginEntry() -> UnsafeRawPointer {"))
    #expect(document.contains("@_cdecl(\"survey_plugin_entry\") public func surveyPluginEntry() -> UnsafeRawPointer {"))
}

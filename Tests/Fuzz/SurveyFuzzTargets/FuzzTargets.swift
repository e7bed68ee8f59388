import SurveyBuiltins
import SurveyCore
import SurveyImport
import SurveyRendering

/// The fuzz targets: each takes arbitrary bytes and drives one input surface of the engine. None
/// may crash, hang or leak, whatever the bytes; wrong input must come back as a typed error.
///
/// `SurveyFuzz` runs them under libFuzzer (`Tests/fuzz.sh`); the tests replay the corpus in
/// `Tests/Fuzz/Corpus/<target>/` (seeds and every crash found) on every `swift test`.
public enum FuzzTargets {
    /// The targets by name.
    public static let all: [String: @Sendable ([UInt8]) -> Void] = [
        "json": json, "loader": loader, "expression": expression, "protocol": eventProtocol, "state": state,
        "surveyjs": surveyJS,
    ]

    static let registry = QuestionTypeRegistry.builtins()

    /// The strict JSON parser on raw bytes.
    @Sendable public static func json(_ bytes: [UInt8]) {
        if let value = try? JSONParser.parse(bytes: bytes) {
            // What parses must write and parse back to the same value.
            let text = JSONWriter.string(from: value)
            guard (try? JSONParser.parse(text)) == value else { fatalError("JSON round trip differs: \(text)") }
        }
    }

    /// The survey loader (streaming decoder, compiler) on raw bytes, then a walk of what loads.
    @Sendable public static func loader(_ bytes: [UInt8]) {
        guard let survey = try? SurveyLoader(registry: registry).load(bytes: bytes, source: "fuzz.json") else { return }
        walk(survey, answers: [.string("yes"), .number(3), .bool(true), .array([.string("a")]), .null])
    }

    /// The expression target's survey for `bytes` (the first 4,096 taken as the expression), or `nil`
    /// when it does not compile.
    public static func expressionSurvey(_ bytes: [UInt8]) -> Survey? {
        var expression = ""
        for scalar in String(decoding: bytes.prefix(4096), as: UTF8.self).unicodeScalars {
            // Control characters cannot be in a JSON string: the survey file would give them as spaces.
            if scalar.value < 0x20 { expression += " " } else { expression.unicodeScalars.append(scalar) }
        }
        let condition = JSONValue.string(expression)
        func step(_ id: String, _ type: String, _ title: String, _ more: [String: JSONValue] = [:]) -> JSONValue {
            .object(more.merging(["id": .string(id), "type": .string(type), "title": .string(title)]) { $1 })
        }
        let json: JSONValue = [
            "formatVersion": 1, "id": "fuzz", "title": "Fuzz",
            "calculatedValues": [["name": "calc", "expression": "{a} + {b}"]],
            "steps": [
                step("a", "number", "A"), step("b", "text", "B"),
                step("c", "multiple-choice", "C", ["options": ["choices": ["x", "y", "z"]]]), step("d", "boolean", "D"),
                step(
                    "q", "text", "Q",
                    [
                        "visibleIf": condition, "requiredIf": condition,
                        "branches": [["if": condition, "complete": true]],
                    ]),
            ],
        ]
        guard let definition = try? SurveyDefinition(json: json) else { return nil }
        return try? SurveyLoader(registry: registry).compile(definition)
    }

    /// An expression as a step's visibleIf, requiredIf and branch condition, compiled and evaluated as
    /// answers change. The survey around it is built as a value and compiled (the expression exactly
    /// as the JSON text's string would give it); parsing that fixed text for every input took a third
    /// of an execution, and the loader target fuzzes the parser.
    @Sendable public static func expression(_ bytes: [UInt8]) {
        guard let survey = expressionSurvey(bytes) else { return }
        for answers in [
            [JSONValue.number(5), .string("hello"), .array([.string("x")]), .bool(true)],
            [.number(-1e308), .string(""), .array([]), .bool(false)], [.number(0), .null, .null, .null],
        ] {
            var session = SurveySession(survey: survey, seed: 1, today: "2026-01-01")
            for (step, value) in zip(["a", "b", "c", "d"], answers) {
                _ = try? session.answer(value, for: step)
                session.next()
            }
            _ = session.isVisible("q")
            session.next()
        }
    }

    /// The protocol and state targets' survey: compiled once by `prepare()` before the first input
    /// (compiling it for each input took most of each execution) and released by `release()` before
    /// the sanitizer's leak check at exit. It is not a `static let`: LeakSanitizer cannot follow
    /// Swift's tagged enum payload pointers, so objects still alive at exit through them would look
    /// leaked, and one compiled during an input would make that input look like a leak.
    nonisolated(unsafe) static var preparedProtocolSurvey: Survey?

    /// Compiles what the targets share before fuzzing starts; pair with `release()` at exit.
    public static func prepare() { preparedProtocolSurvey = compileProtocolSurvey() }

    /// Frees what `prepare()` made, so that the leak check at exit sees only real leaks.
    public static func release() { preparedProtocolSurvey = nil }

    static var protocolSurvey: Survey? { preparedProtocolSurvey ?? compileProtocolSurvey() }

    static func compileProtocolSurvey() -> Survey? {
        try? SurveyLoader(registry: registry).load(
            text: """
                {"formatVersion": 1, "id": "fuzz-protocol", "version": "1", "title": "Fuzz",
                 "steps": [
                   {"id": "name", "type": "text", "title": "Name", "required": true, "options": {"maxLength": 20}},
                   {"id": "page", "type": "page", "title": "P", "steps": [
                     {"id": "pet", "type": "single-choice", "title": "Pet", "options": {"choices": ["cat", "dog"], "other": true}},
                     {"id": "age", "type": "number", "title": "Age", "visibleIf": "{pet} = 'dog'", "options": {"min": 0, "max": 30}}
                   ], "branches": [{"if": "{age} > 10", "goto": "name"}]},
                   {"id": "contact", "type": "contact-form", "title": "Contact"},
                   {"id": "rank", "type": "ranking", "title": "Rank", "options": {"items": ["a", "b", "c"]}}
                 ]}
                """, source: "fuzz-protocol")
    }

    /// JSON-event protocol commands (one per line) against a real session.
    @Sendable public static func eventProtocol(_ bytes: [UInt8]) {
        guard let survey = protocolSurvey else { fatalError("the protocol fuzz survey does not load") }
        let text = String(decoding: bytes, as: UTF8.self)
        // The events as values: writing each as a line (sorting every object's keys) took more than
        // half of an execution, and the json target fuzzes the writer. The last one is written.
        var last: JSONValue?
        var renderer = JSONEventRenderer(input: ArrayLineSource(text: text), values: { last = $0 })
        var driver = SurveyDriver(session: SurveySession(survey: survey, seed: 3, today: "2026-01-01"))
        _ = driver.run(with: &renderer)
        if let last { _ = EventProtocol.line(last) }
    }

    /// A session state (file or protocol `resume`) read and resumed.
    @Sendable public static func state(_ bytes: [UInt8]) {
        guard let survey = protocolSurvey else { fatalError("the protocol fuzz survey does not load") }
        guard let json = try? JSONParser.parse(bytes: bytes), let state = try? SessionState(json: json),
            var session = try? SurveySession(survey: survey, resuming: state)
        else { return }
        _ = session.currentStep
        session.next()
        _ = session.state.jsonValue
    }

    /// The SurveyJS importer on raw bytes: the conversion is valid JSON, the same every time, and what
    /// loads is walked.
    @Sendable public static func surveyJS(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let conversion = try? SurveyJSImporter.convert(text: text, source: "fuzz.json", id: "fuzz") else {
            return
        }
        let written = conversion.text
        guard (try? JSONParser.parse(written)) == conversion.survey else {
            fatalError("the conversion is not its JSON")
        }
        guard (try? SurveyJSImporter.convert(text: text, source: "fuzz.json", id: "fuzz"))?.text == written else {
            fatalError("two conversions of the same input differ")
        }
        guard let survey = try? SurveyLoader(registry: registry).load(text: written, source: "fuzz") else { return }
        walk(survey, answers: [.string("yes"), .number(3), .bool(true), .array([.string("a")]), .null])
    }

    static func walk(_ survey: Survey, answers: [JSONValue]) {
        var session = SurveySession(survey: survey, seed: 7, today: "2026-01-01")
        var steps = 0
        while session.currentUnitID != nil, steps < 200 {
            for (index, id) in session.currentStepIDs.enumerated() {
                _ = try? session.answer(answers[(steps + index) % answers.count], for: id)
            }
            _ = session.currentStep
            if case .blocked = session.next() { break }
            steps += 1
        }
        _ = session.completionResult()
    }
}

// Measures the cost of crossing the plugin ABI against the same logic built in, and exercises
// the load/call/free cycle for the leak check (Tests/leak-check.sh).
//
//   swift build -c release && .build/release/PluginBench            # prints JSON: ns per call
//   .build/debug/PluginBench --cycles 50                              # load/call/free cycle only
import Foundation
import SurveyCore
import SurveyPluginLoader

let binDirectory = ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ".")
    .split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")

/// An example plugin from the bin directory; the broken test fixtures from SURVEY_FIXTURE_PLUGIN_DIR,
/// where Tests/leak-check.sh compiles them (they are not products of the package).
func library(_ name: String) -> String {
    guard name.hasPrefix("Broken") else { return binDirectory + "/lib\(name).so" }
    return (ProcessInfo.processInfo.environment["SURVEY_FIXTURE_PLUGIN_DIR"] ?? binDirectory) + "/lib\(name).so"
}

/// The broken fixtures join the cycle when Tests/leak-check.sh built them.
let fixtures =
    ProcessInfo.processInfo.environment["SURVEY_FIXTURE_PLUGIN_DIR"] == nil
    ? [] : ["BrokenInvalidJSON", "BrokenFailingNormalize"]

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(1)
}

/// The emoji-rating logic of Plugins/CStarPlugin, built in.
struct BuiltInEmojiRating: QuestionType {
    var typeID: String { "emoji-rating" }
    var summary: String { "built-in copy" }
    func makeOptions(from reader: inout OptionsReader) throws(SurveyError) -> Int {
        try reader.int("faces", default: 5, in: 3...5)
    }
    func input(for faces: Int, in context: PresentationContext) -> InputPrimitive {
        .number(NumberInput(minimum: 1, maximum: Double(faces), step: 1, isInteger: true, presentation: "emoji"))
    }
    func normalize(_ answer: JSONValue, options faces: Int) throws(AnswerError) -> JSONValue {
        let value = answer.numberValue ?? answer.stringValue.flatMap { Double($0) }
        guard let value, value.rounded() == value, value >= 1, value <= Double(faces) else {
            throw AnswerError(
                code: "outOfRange", message: "Choose a face from 1 to \(faces).",
                arguments: ["min": "1", "max": "\(faces)"])
        }
        return .number(value)
    }
}

/// The colour logic of Plugins/ColorPicker, built in.
struct BuiltInColor: QuestionType {
    var typeID: String { "color" }
    var summary: String { "built-in copy" }
    func makeOptions(from reader: inout OptionsReader) throws(SurveyError) {}
    func input(for options: Void, in context: PresentationContext) -> InputPrimitive { .freeText(TextInput()) }
    func normalize(_ answer: JSONValue, options: Void) throws(AnswerError) -> JSONValue {
        guard let text = answer.stringValue else { throw AnswerError.wrongShape(expected: "a colour", got: answer) }
        var digits = text.trimmingPrefix("#").uppercased()
        if digits.count == 3 { digits = digits.map { "\($0)\($0)" }.joined() }
        guard digits.count == 6, digits.allSatisfy(\.isHexDigit) else {
            throw AnswerError(code: "invalidColor", message: "Enter a colour like #FF8800.", arguments: ["value": text])
        }
        return .string("#" + digits)
    }
}

let builtInBMI = ExpressionFunction(name: "bmi", arity: 2...2) { arguments, _ in
    guard let weight = arguments[0].numberValue, let height = arguments[1].numberValue, height > 0 else { return .null }
    let meters = height / 100
    return .number(weight / (meters * meters))
}

func configure(_ type: AnyQuestionType, _ options: JSONValue) -> ConfiguredQuestion {
    do {
        return try type.configure(options: options, path: .root)
    } catch {
        fail("\(type.typeID): \(error)")
    }
}

func loadExamples(isolation: PluginIsolation? = nil) -> [LoadedPlugin] {
    do {
        // Diagnostics of the broken fixtures are expected here: keep them quiet.
        return try PluginLoader(isolation: isolation, diagnostics: { _ in }).load(
            paths: (["ColorPicker", "CStarPlugin", "HealthFunctions"] + fixtures).map(library), environment: [:])
    } catch {
        fail("\(error)")
    }
}

/// Nanoseconds per call of `body`, best of five runs of `iterations` calls.
func measure(_ iterations: Int, _ body: () -> Void) -> Double {
    var best = Double.infinity
    for _ in 0..<5 {
        let start = ContinuousClock.now
        for _ in 0..<iterations { body() }
        let elapsed = ContinuousClock.now - start
        let nanoseconds = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
        best = min(best, nanoseconds / Double(iterations))
    }
    return best
}

/// Loads every example plugin and calls everything they offer, `cycles` times.
func cycle(_ cycles: Int) {
    let context = FunctionContext(today: "2025-01-01")
    let french = PresentationContext(locale: "fr", defaultLocale: "en")
    for _ in 0..<cycles {
        let plugins = loadExamples()
        var types = QuestionTypeRegistry()
        var functions = ExpressionFunctionRegistry.standard
        do {
            try plugins.install(into: &types, functions: &functions)
        } catch {
            fail("\(error)")
        }
        for type in types.types {
            let question = configure(type, type.typeID == "color" ? ["palette": ["#f00", "#0f0"]] : [:])
            _ = question.input(in: french)
            _ = try? question.normalize("#f00")
            _ = try? question.normalize(3)
            _ = try? question.parse(line: "1", in: .english)
            _ = question.summarize(["#FF0000", 3, "x"], in: french)
        }
        for name in ["bmi", "initials", "is_adult", "brightness"] {
            _ = try? functions.function(named: name)?.call(["Ada Lovelace"], context: context)
            _ = try? functions.function(named: name)?.call([70, 170], context: context)
            _ = try? functions.function(named: name)?.call([30], context: context)
        }
    }
}

let arguments = CommandLine.arguments
if let index = arguments.firstIndex(of: "--cycles") {
    let cycles = arguments.indices.contains(index + 1) ? Int(arguments[index + 1]) ?? 10 : 10
    cycle(cycles)
    print("{\"cycles\": \(cycles)}")
    exit(0)
}

let plugins = loadExamples()
var pluginTypes = QuestionTypeRegistry()
var pluginFunctions = ExpressionFunctionRegistry()
do {
    try plugins.install(into: &pluginTypes, functions: &pluginFunctions)
} catch {
    fail("\(error)")
}
guard let cEmoji = pluginTypes.type(withID: "emoji-rating"), let swiftColor = pluginTypes.type(withID: "color"),
    let pluginBMI = pluginFunctions.function(named: "bmi"), let initials = pluginFunctions.function(named: "initials")
else { fail("example plugins are missing their types or functions") }

let iterations = 200_000
let context = FunctionContext(today: "2025-01-01")
let cQuestion = configure(cEmoji, ["faces": 5])
let builtInEmoji = configure(AnyQuestionType(BuiltInEmojiRating()), ["faces": 5])
let swiftQuestion = configure(swiftColor, [:])
let builtInColor = configure(AnyQuestionType(BuiltInColor()), [:])
let weight: JSONValue = 70
let height: JSONValue = 175

var results: [(String, Double)] = []
results.append(("normalize emoji-rating, built in", measure(iterations) { _ = try? builtInEmoji.normalize(4) }))
results.append(("normalize emoji-rating, C plugin", measure(iterations) { _ = try? cQuestion.normalize(4) }))
results.append(("normalize color, built in", measure(iterations) { _ = try? builtInColor.normalize("#ff8800") }))
results.append(
    ("normalize color, Swift SDK plugin", measure(iterations) { _ = try? swiftQuestion.normalize("#ff8800") }))
results.append(
    ("bmi(), built in", measure(iterations) { _ = try? builtInBMI.call([weight, height], context: context) }))
results.append(
    ("bmi(), plugin via libffi", measure(iterations) { _ = try? pluginBMI.call([weight, height], context: context) }))
results.append(
    (
        "initials(), plugin via libffi (string in/out)",
        measure(iterations) { _ = try? initials.call(["Ada Lovelace"], context: context) }
    ))

// --isolate-plugins: the same calls through the plugin host child process (the survey binary).
let host = binDirectory + "/survey"
if FileManager.default.isExecutableFile(atPath: host) {
    var isolatedTypes = QuestionTypeRegistry()
    var isolatedFunctions = ExpressionFunctionRegistry()
    let start = ContinuousClock.now
    let isolatedPlugins = loadExamples(isolation: PluginIsolation(executable: host))
    let startup = ContinuousClock.now - start
    do {
        try isolatedPlugins.install(into: &isolatedTypes, functions: &isolatedFunctions)
    } catch {
        fail("\(error)")
    }
    guard let isolatedEmoji = isolatedTypes.type(withID: "emoji-rating"),
        let isolatedBMI = isolatedFunctions.function(named: "bmi")
    else { fail("isolated example plugins are missing their types or functions") }
    let isolatedQuestion = configure(isolatedEmoji, ["faces": 5])
    let isolatedIterations = 5_000
    results.append(
        (
            "normalize emoji-rating, C plugin, --isolate-plugins",
            measure(isolatedIterations) { _ = try? isolatedQuestion.normalize(4) }
        ))
    results.append(
        (
            "bmi(), plugin via libffi, --isolate-plugins",
            measure(isolatedIterations) { _ = try? isolatedBMI.call([weight, height], context: context) }
        ))
    let nanoseconds = Double(startup.components.seconds) * 1e9 + Double(startup.components.attoseconds) / 1e9
    results.append(("plugin host start-up (3 plugins), --isolate-plugins", nanoseconds))
}

print("{")
for (index, (name, nanoseconds)) in results.enumerated() {
    let rounded = (nanoseconds * 10).rounded() / 10
    print("  \"\(name)\": {\"nsPerCall\": \(rounded)}" + (index == results.count - 1 ? "" : ","))
}
print("}")

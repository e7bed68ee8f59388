import Foundation
import SurveyCore
import SurveyPluginLoader
import SurveyPluginMessages
import Testing

/// One test per loader failure mode: each is a one-line error naming the file.
@Suite struct FailureModeTests {
    func loadError(_ path: String) -> PluginError? {
        PluginFixtures.error { () throws(PluginError) in _ = try PluginLoader().load(path: path) }
    }

    @Test func fileNotFound() {
        let error = loadError("/nonexistent/libNothing.so")
        #expect(error?.kind == .notFound)
        #expect(error?.description == "/nonexistent/libNothing.so: plugin file not found")
    }

    @Test func notASharedObject() throws {
        let directory = try PluginFixtures.temporaryDirectory()
        let path = directory + "/text.so"
        try "not an ELF file".write(toFile: path, atomically: true, encoding: .utf8)
        let error = loadError(path)
        #expect(error?.kind == .notSharedObject)
        #expect(error?.description.hasPrefix(path + ": not a loadable shared library (") == true)
        #expect(error?.description.contains("\n") == false)
    }

    @Test func aFIFOIsRefusedBeforeDlopenWouldBlock() throws {
        let path = try PluginFixtures.temporaryDirectory() + "/fifo.so"
        #expect(mkfifo(path, 0o600) == 0)
        let error = loadError(path)
        #expect(error?.kind == .notSharedObject)
        #expect(
            error?.description
                == path + ": not a regular file (a directory, FIFO or device), so not a shared library")
        let directory = try PluginFixtures.temporaryDirectory()
        #expect(loadError(directory)?.kind == .notSharedObject)
        let inSearchPath = PluginFixtures.error { () throws(PluginError) in
            _ = try PluginLoader().load(
                paths: [], environment: ["SURVEY_PLUGIN_PATH": (path as NSString).deletingLastPathComponent])
        }
        #expect(inSearchPath?.path.hasSuffix("/fifo.so") == true)
    }

    @Test func missingEntrySymbol() {
        let path = PluginFixtures.library("BrokenNoEntry")
        let error = loadError(path)
        #expect(error?.kind == .missingEntrySymbol)
        #expect(error?.description.hasPrefix(path + ": missing entry symbol 'survey_plugin_entry'") == true)
    }

    @Test func abiVersionMismatch() {
        let path = PluginFixtures.library("BrokenABIVersion")
        let error = loadError(path)
        #expect(error?.kind == .abiVersionMismatch)
        #expect(error?.description == path + ": ABI version 99 is not supported (this engine reads version 1.x)")
    }

    @Test func structSizeMismatch() {
        let path = PluginFixtures.library("BrokenStructSize")
        let error = loadError(path)
        #expect(error?.kind == .structSizeMismatch)
        #expect(
            error?.description.hasPrefix(
                path + ": survey_plugin.struct_size is 8 but this engine reads sizes from 64 (ABI 1.0) up") == true)
    }

    @Test func invalidJSONFromNormalizeBecomesAnAnswerError() throws {
        let path = PluginFixtures.library("BrokenInvalidJSON")
        let log = DiagnosticsLog()
        let type = try #require(try PluginLoader(diagnostics: log.append).load(path: path).questionTypes.first)
        let question = try PluginFixtures.configure(type, nil)
        let error = PluginFixtures.error { () throws(AnswerError) in _ = try question.normalize("anything") }
        #expect(error?.code == "pluginFailure")
        // The respondent sees a plain message; the operator gets what the plugin did.
        #expect(error?.message == "This answer could not be checked. Please try again.")
        #expect(
            error.map { UIStrings(locale: "fr").message(for: $0) }
                == "Impossible de vérifier cette réponse. Veuillez réessayer.")
        #expect(log.lines.count == 1)
        #expect(
            log.lines.first?.hasPrefix(path + ": question type 'broken-json': normalize returned invalid JSON") == true)
        // The plugin is still usable afterwards.
        #expect(question.input(in: .english).kindName == "free-text")
    }

    @Test func errorReportedByNormalizeBecomesAnAnswerError() throws {
        let type = try #require(try PluginFixtures.load("BrokenFailingNormalize").questionTypes.first)
        let question = try PluginFixtures.configure(type, ["anything": true])
        #expect(
            throws: AnswerError(
                code: "pluginSaysNo", message: "This plugin rejects every answer.", arguments: ["reason": "test"],
                isLocalized: true)
        ) { try question.normalize("yes") }
    }

    @Test func errorReportedByCheckOptionsBecomesASurveyError() throws {
        let type = try #require(try PluginFixtures.load("BrokenFailingNormalize").questionTypes.first)
        let error = PluginFixtures.error { () throws(SurveyError) in
            _ = try PluginFixtures.configure(type, ["reject": 1])
        }
        #expect(error?.kind == .invalidOptions)
        #expect(error?.description == "'reject' is not allowed here (step 'q1', at $.steps[0].options.reject)")
    }

    @Test func duplicateTypeIDAcrossTwoPlugins() throws {
        let directory = try PluginFixtures.temporaryDirectory()
        let copy = try PluginFixtures.compile(
            CPluginSources.minimal(typeID: "emoji-rating", function: "bmi"), name: "impostor", in: directory)
        let plugins = try PluginLoader().load(
            paths: [PluginFixtures.library("CStarPlugin"), copy], environment: [:])
        var types = QuestionTypeRegistry()
        var functions = ExpressionFunctionRegistry.standard
        let error = PluginFixtures.error { () throws(PluginError) in
            try plugins.install(into: &types, functions: &functions)
        }
        #expect(error?.kind == .duplicateTypeID)
        #expect(
            error?.description
                == "\(copy): question type 'emoji-rating' is already registered by \(PluginFixtures.library("CStarPlugin"))"
        )
    }

    @Test func duplicateFunctionAcrossTwoPlugins() throws {
        let directory = try PluginFixtures.temporaryDirectory()
        let copy = try PluginFixtures.compile(
            CPluginSources.minimal(typeID: "unique-type", function: "bmi"), name: "impostor", in: directory)
        let plugins = try PluginLoader().load(
            paths: [PluginFixtures.library("HealthFunctions"), copy], environment: [:])
        var types = QuestionTypeRegistry()
        var functions = ExpressionFunctionRegistry.standard
        let error = PluginFixtures.error { () throws(PluginError) in
            try plugins.install(into: &types, functions: &functions)
        }
        #expect(error?.kind == .duplicateFunction)
        #expect(
            error?.description
                == "\(copy): expression function 'bmi' is already registered by \(PluginFixtures.library("HealthFunctions"))"
        )
    }

    @Test func duplicateOfABuiltIn() throws {
        let plugins = try PluginLoader().load(paths: [PluginFixtures.library("HealthFunctions")], environment: [:])
        var types = QuestionTypeRegistry()
        var functions = ExpressionFunctionRegistry()
        try functions.register(ExpressionFunction(name: "BMI", arity: 2...2) { _, _ in .null })
        let error = PluginFixtures.error { () throws(PluginError) in
            try plugins.install(into: &types, functions: &functions)
        }
        #expect(error?.description.hasSuffix("expression function 'bmi' is already registered by built-in") == true)
    }

    @Test func invalidOptionsSchemaIsInvalidJSON() throws {
        let directory = try PluginFixtures.temporaryDirectory()
        let path = try PluginFixtures.compile(
            CPluginSources.minimal(typeID: "bad-schema", function: "f", schema: "{oops"), name: "schema", in: directory)
        let error = loadError(path)
        #expect(error?.kind == .invalidJSON)
        #expect(
            error?.description.hasPrefix(path + ": the options_schema of question type 'bad-schema' is not valid JSON")
                == true)
    }

    @Test func searchPathDirectories() throws {
        let directory = try PluginFixtures.temporaryDirectory()
        try FileManager.default.createSymbolicLink(
            atPath: directory + "/b.so", withDestinationPath: PluginFixtures.library("CStarPlugin"))
        try FileManager.default.createSymbolicLink(
            atPath: directory + "/a.so", withDestinationPath: PluginFixtures.library("HealthFunctions"))
        try "ignored".write(toFile: directory + "/README", atomically: true, encoding: .utf8)
        // The same plugin named by --plugin and found in the directory loads once.
        let plugins = try PluginLoader().load(
            paths: [PluginFixtures.library("CStarPlugin")],
            environment: ["SURVEY_PLUGIN_PATH": "::\(directory)"])
        #expect(plugins.map(\.name) == ["c-star", "health-functions"])
        #expect(plugins[1].path == directory + "/a.so")

        let error = PluginFixtures.error { () throws(PluginError) in
            _ = try PluginLoader().load(paths: [], environment: ["SURVEY_PLUGIN_PATH": "/nonexistent-plugin-dir"])
        }
        #expect(error?.description == "/nonexistent-plugin-dir: plugin directory from SURVEY_PLUGIN_PATH not found")
    }
}

/// C sources written from docs/plugin-abi.md alone and compiled at test time outside the repository.
enum CPluginSources {
    static func minimal(typeID: String, function: String, schema: String = "{}") -> String {
        """
        #include <stdlib.h>
        #include <string.h>
        #include <survey_plugin.h>

        static char *copy(const char *text) {
            char *result = malloc(strlen(text) + 1);
            if (result) strcpy(result, text);
            return result;
        }
        static void release(char *string) { free(string); }
        static char *describe(const survey_question_type *type, const char *options, const char *context) {
            (void)type; (void)options; (void)context;
            return copy("{\\"kind\\":\\"boolean\\",\\"trueLabel\\":\\"Oui\\",\\"falseLabel\\":\\"Non\\"}");
        }
        static char *normalize(const survey_question_type *type, const char *options, const char *answer) {
            (void)type; (void)options;
            if (strcmp(answer, "true") == 0 || strcmp(answer, "false") == 0) {
                char *result = malloc(strlen(answer) + 8);
                if (result) { strcpy(result, "{\\"ok\\":"); strcat(result, answer); strcat(result, "}"); }
                return result;
            }
            return copy("{\\"error\\":{\\"code\\":\\"notABoolean\\",\\"message\\":\\"Answer yes or no.\\"}}");
        }
        static double twice(double x) { return 2 * x; }
        static const uint32_t one_double[] = {SURVEY_VALUE_DOUBLE};
        static const survey_question_type types[] = {{
            .struct_size = sizeof(survey_question_type), .collects_answer = 1,
            .type_id = "\(typeID)", .summary = "A yes/no question from a C plugin built at test time",
            .options_schema = "\(schema.replacingOccurrences(of: "\"", with: "\\\""))",
            .describe = describe, .normalize = normalize,
        }};
        static const survey_function functions[] = {{
            .struct_size = sizeof(survey_function), .return_type = SURVEY_VALUE_DOUBLE, .name = "\(function)",
            .function = (void *)twice, .argument_count = 1, .argument_types = one_double,
        }};
        static const survey_plugin plugin = {
            .abi_version = SURVEY_PLUGIN_ABI_VERSION, .struct_size = sizeof(survey_plugin),
            .name = "outside", .version = "0.1", .free_string = release,
            .question_type_count = 1, .question_types = types, .function_count = 1, .functions = functions,
        };
        const survey_plugin *survey_plugin_entry(void) { return &plugin; }
        """
    }
}

/// A C plugin written from the ABI document alone, outside the repository, loads and works.
@Test func pluginCompiledOutsideTheRepositoryLoadsAndWorks() throws {
    let directory = try PluginFixtures.temporaryDirectory()
    let path = try PluginFixtures.compile(
        CPluginSources.minimal(typeID: "oui-non", function: "twice"), name: "outside", in: directory)
    let plugins = try PluginLoader().load(paths: [], environment: ["SURVEY_PLUGIN_PATH": directory])
    #expect(plugins.map(\.path) == [path])
    var types = QuestionTypeRegistry()
    var functions = ExpressionFunctionRegistry.standard
    try plugins.install(into: &types, functions: &functions)
    let type = try #require(types.type(withID: "oui-non"))
    #expect(type.origin == path)
    let question = try PluginFixtures.configure(type, nil)
    #expect(question.input(in: .english) == .boolean(BooleanInput(trueLabel: "Oui", falseLabel: "Non")))
    #expect(try question.parse(line: "oui", in: .english) == true)
    #expect(try question.normalize(true) == true)
    #expect(throws: AnswerError.self) { try question.normalize("maybe") }
    #expect(try functions.function(named: "twice")?.call([21], context: .current()) == 42)
}

@Test func aResultWithBothOkAndErrorIsMalformed() {
    switch PluginMessages.result(["ok": 1, "error": ["message": "no"]]) {
    case .malformed(let problem): #expect(problem.contains("both 'ok' and 'error'"))
    default: Issue.record("a result with both members was accepted")
    }
}

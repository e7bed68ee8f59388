import Foundation
import SurveyCore
import SurveyPluginLoader
import Testing

/// ABI 1.1 grows by appending fields: 1.0 plugins keep loading, 1.1 features work, and structs from a
/// future minor version (larger than this engine's) load with only the known fields read.
@Suite struct ABICompatibilityTests {
    static let legacyDirectory = PluginFixtures.repositoryRoot + "/Tests/PluginFixtures/LegacyV10"

    @Test func aPluginBuiltAgainstThe10HeaderLoadsAndWorks() throws {
        let directory = try PluginFixtures.temporaryDirectory()
        let source = try String(contentsOfFile: Self.legacyDirectory + "/legacy_plugin.c", encoding: .utf8)
        let library = try PluginFixtures.compile(
            source, name: "legacy", in: directory, includeDirectory: Self.legacyDirectory)
        let plugin = try PluginLoader().load(path: library)
        #expect(plugin.name == "legacy")
        let type = try #require(plugin.questionTypes.first)
        let question = try PluginFixtures.configure(type, nil)
        #expect(try question.normalize("old") == "old")
        // A 1.0 plugin reusing a built-in code without its arguments: its own message, never "{min}".
        let error = PluginFixtures.error { () throws(AnswerError) in
            _ = try question.normalize("new", in: PresentationContext(locale: "de", defaultLocale: "en"))
        }
        #expect(error.map { UIStrings(locale: "de").message(for: $0) } == "Only 'old' will do.")
        let twice = try #require(plugin.functions.first)
        #expect(try twice.call([.number(21)], context: FunctionContext(today: "2026-01-01")) == .number(42))
    }

    @Test func a11PluginLocalisesItsMessagesAndReportsFunctionErrors() throws {
        let directory = try PluginFixtures.temporaryDirectory()
        let library = try PluginFixtures.compile(Self.modernPlugin, name: "modern", in: directory)
        let log = DiagnosticsLog()
        let plugin = try PluginLoader(diagnostics: log.append).load(path: library)
        let question = try PluginFixtures.configure(try #require(plugin.questionTypes.first), ["size": 3])
        let french = PresentationContext(locale: "fr", defaultLocale: "en")
        let error = PluginFixtures.error { () throws(AnswerError) in _ = try question.normalize("x", in: french) }
        #expect(error?.message == "Réponse refusée (taille 3).")
        #expect(error.map { UIStrings(locale: "fr").message(for: $0) } == "Réponse refusée (taille 3).")
        // Without a locale, the 1.0 callback answers.
        #expect(
            PluginFixtures.error { () throws(AnswerError) in _ = try question.normalize("x") }?.message == "Refused.")
        let ratio = try #require(plugin.functions.first { $0.name == "ratio" })
        let today = FunctionContext(today: "2026-01-01")
        #expect(try ratio.call([.number(6), .number(3)], context: today) == .number(2))
        #expect(try ratio.call([.number(1), .number(0)], context: today) == .null)
        #expect(log.lines == ["\(library): function 'ratio': division by zero"])
    }

    @Test func theOptionsSchemaIsEnforced() throws {
        let directory = try PluginFixtures.temporaryDirectory()
        let library = try PluginFixtures.compile(Self.modernPlugin, name: "modern", in: directory)
        let type = try #require(try PluginLoader().load(path: library).questionTypes.first)
        func problem(_ options: JSONValue) -> String? {
            PluginFixtures.error { () throws(SurveyError) in _ = try PluginFixtures.configure(type, options) }?
                .description
        }
        #expect(problem(["size": 3]) == nil)
        #expect(problem(["size": 0]) == "option 'size' must be at least 1.0 (step 'q1', at $.steps[0].options.size)")
        #expect(problem(["size": 2.5])?.contains("must be integer") == true)
        #expect(problem(["siez": 3])?.contains("unknown option 'siez' (did you mean 'size'?)") == true)
        #expect(problem(["size": 3, "code": "ab"])?.contains("must match the pattern ^[A-Z]+$") == true)
        #expect(problem([:])?.contains("needs the member 'size'") == true)
    }

    @Test func aSchemaWithAnUnsupportedKeywordIsRefusedAtLoad() throws {
        let directory = try PluginFixtures.temporaryDirectory()
        let source = Self.modernPlugin.replacingOccurrences(of: "\\\"minimum\\\":1", with: "\\\"oneOf\\\":[]")
        let library = try PluginFixtures.compile(source, name: "unsupported", in: directory)
        let error = PluginFixtures.error { () throws(PluginError) in _ = try PluginLoader().load(path: library) }
        #expect(error?.description.contains("uses 'oneOf', which this engine does not enforce") == true)
    }

    @Test func structsOfAFutureMinorVersionLoadWithTheKnownFields() throws {
        let directory = try PluginFixtures.temporaryDirectory()
        // Each struct 16 bytes larger than this engine's, as a 1.2 header might make them.
        let source = Self.modernPlugin
            .replacingOccurrences(of: "sizeof(survey_question_type)", with: "sizeof(struct future_type)")
            .replacingOccurrences(
                of: "static const survey_question_type types[]", with: "static const struct future_type types[]"
            )
            .replacingOccurrences(
                of: "{{\n    .struct_size = sizeof(struct future_type)",
                with: "{{.base = {\n    .struct_size = sizeof(struct future_type)"
            )
            .replacingOccurrences(
                of: "    .normalize_localized = normalize_localized,\n}};",
                with: "    .normalize_localized = normalize_localized,\n}, .later = 7}};"
            )
            .replacingOccurrences(of: ".question_types = types,", with: ".question_types = &types[0].base,")
        let prefix = "struct future_type { survey_question_type base; uint64_t later; uint64_t more; };\n"
        let library = try PluginFixtures.compile(
            source.replacingOccurrences(of: "// FUTURE\n", with: prefix), name: "future", in: directory)
        let plugin = try PluginLoader().load(path: library)
        let question = try PluginFixtures.configure(try #require(plugin.questionTypes.first), ["size": 2])
        let french = PresentationContext(locale: "fr", defaultLocale: "en")
        #expect(
            PluginFixtures.error { () throws(AnswerError) in _ = try question.normalize("x", in: french) }?.message
                == "Réponse refusée (taille 2).")
    }

    /// An ABI 1.1 plugin: a type with normalize_localized and an options_schema, and a function that
    /// reports errors.
    static let modernPlugin = #"""
        #include <stdio.h>
        #include <stdlib.h>
        #include <string.h>

        #include "survey_plugin.h"

        // FUTURE
        static char *copy(const char *text) {
            size_t length = strlen(text) + 1;
            char *result = malloc(length);
            if (result) memcpy(result, text, length);
            return result;
        }

        static void free_string(char *string) { free(string); }

        static char *describe(const survey_question_type *type, const char *options, const char *context) {
            (void)type; (void)options; (void)context;
            return copy("{\"kind\":\"free-text\",\"multiline\":false}");
        }

        static char *normalize(const survey_question_type *type, const char *options, const char *answer) {
            (void)type; (void)options; (void)answer;
            return copy("{\"error\":{\"code\":\"refused\",\"message\":\"Refused.\"}}");
        }

        static char *normalize_localized(const survey_question_type *type, const char *options, const char *request) {
            (void)type;
            int size = 0;
            sscanf(options, "{\"size\":%d", &size);
            char buffer[200];
            if (strstr(request, "\"locale\":\"fr\""))
                snprintf(buffer, sizeof buffer, "{\"error\":{\"code\":\"refused\",\"message\":\"R\u00e9ponse refus\u00e9e (taille %d).\"}}", size);
            else
                snprintf(buffer, sizeof buffer, "{\"error\":{\"code\":\"refused\",\"message\":\"Refused (size %d).\"}}", size);
            return copy(buffer);
        }

        static double ratio(double a, double b, char **error) {
            if (b == 0) { *error = copy("division by zero"); return 0; }
            return a / b;
        }

        static const uint32_t ratio_arguments[] = {SURVEY_VALUE_DOUBLE, SURVEY_VALUE_DOUBLE};

        static const survey_question_type types[] = {{
            .struct_size = sizeof(survey_question_type),
            .collects_answer = 1,
            .type_id = "modern",
            .summary = "A type from an ABI 1.1 plugin",
            .options_schema = "{\"type\":\"object\",\"required\":[\"size\"],\"additionalProperties\":false,"
                              "\"properties\":{\"size\":{\"type\":\"integer\",\"minimum\":1},"
                              "\"code\":{\"type\":\"string\",\"pattern\":\"^[A-Z]+$\"}}}",
            .describe = describe,
            .normalize = normalize,
            .normalize_localized = normalize_localized,
        }};

        static const survey_function functions[] = {{
            .struct_size = sizeof(survey_function),
            .return_type = SURVEY_VALUE_DOUBLE,
            .name = "ratio",
            .function = (void *)ratio,
            .argument_count = 2,
            .argument_types = ratio_arguments,
            .flags = SURVEY_FUNCTION_REPORTS_ERRORS,
        }};

        static const survey_plugin plugin = {
            .abi_version = SURVEY_PLUGIN_ABI_VERSION,
            .struct_size = sizeof(survey_plugin),
            .name = "modern",
            .version = "1.1.0",
            .free_string = free_string,
            .question_type_count = 1,
            .question_types = types,
            .function_count = 1,
            .functions = functions,
            .abi_minor = SURVEY_PLUGIN_ABI_MINOR,
        };

        const survey_plugin *survey_plugin_entry(void) { return &plugin; }
        """#
}

import Foundation

// The language-specific files of a new plugin: its source and its build file.

extension PluginTemplate {
    // MARK: C

    var cSource: String {
        let id = identifier
        return """
            // \(name): a survey plugin in C (ABI 1.1, survey_plugin.h), made by `survey plugin new`.
            //   question kind "\(kindID)": a whole number from 1 to the option "max" (2 to 10, default 5)
            //   function \(functionName)(value, max) -> double: value as a percentage of max
            // Build with `make`; see README.md.
            #include <math.h>
            #include <stdio.h>
            #include <stdlib.h>
            #include <string.h>

            #include "survey_plugin.h"

            /* Every string handed to the engine is allocated here; the engine releases it with free_string. */
            static char *copy(const char *text) {
                size_t length = strlen(text) + 1;
                char *result = malloc(length);
                if (result) memcpy(result, text, length);
                return result;
            }

            static void free_string(char *string) { free(string); }

            /* The engine enforces this schema on the options before any callback sees them, so the options
               are {} or {"max":N} with N from 2 to 10 (compact JSON, keys sorted). */
            static const char options_schema[] =
                "{\\"type\\":\\"object\\",\\"additionalProperties\\":false,"
                "\\"properties\\":{\\"max\\":{\\"type\\":\\"integer\\",\\"minimum\\":2,\\"maximum\\":10}}}";

            static long read_max(const char *options) {
                const char *member = strstr(options, "\\"max\\":");
                return member ? strtol(member + 6, NULL, 10) : 5;
            }

            /* How the question is asked: a whole number from 1 to max (an input primitive). */
            static char *\(id)_describe(const survey_question_type *type, const char *options, const char *context) {
                (void)type, (void)context;
                char buffer[128];
                snprintf(buffer, sizeof buffer, "{\\"kind\\":\\"number\\",\\"min\\":1,\\"max\\":%ld,\\"integer\\":true}",
                         read_max(options));
                return copy(buffer);
            }

            /* Checks an answer (compact JSON) and returns {"ok": its normal form} or {"error": …}. */
            static char *\(id)_normalize(const survey_question_type *type, const char *options, const char *answer) {
                (void)type;
                long max = read_max(options);
                char *end = NULL;
                double value = strtod(answer, &end);
                char buffer[256];
                if (end != answer && *end == '\\0' && value >= 1 && value <= max && value == floor(value)) {
                    snprintf(buffer, sizeof buffer, "{\\"ok\\":%ld}", (long)value);
                } else {
                    snprintf(buffer, sizeof buffer,
                             "{\\"error\\":{\\"code\\":\\"outOfRange\\",\\"message\\":\\"Choose a whole number from 1 to %ld.\\","
                             "\\"arguments\\":{\\"min\\":\\"1\\",\\"max\\":\\"%ld\\"}}}",
                             max, max);
                }
                return copy(buffer);
            }

            /* \(functionName)(value, max): value as a percentage of max; NaN (null in expressions) when max is 0. */
            static double \(id)_percent(double value, double max) { return max == 0 ? NAN : value / max * 100; }

            static const uint32_t percent_arguments[] = {SURVEY_VALUE_DOUBLE, SURVEY_VALUE_DOUBLE};

            static const survey_question_type types[] = {{
                .struct_size = sizeof(survey_question_type),
                .collects_answer = 1,
                .type_id = "\(kindID)",
                .summary = "A whole number from 1 to max (default 5)",
                .options_schema = options_schema,
                .describe = \(id)_describe,
                .normalize = \(id)_normalize,
            }};

            static const survey_function functions[] = {{
                .struct_size = sizeof(survey_function),
                .return_type = SURVEY_VALUE_DOUBLE,
                .name = "\(functionName)",
                .function = (void *)\(id)_percent,
                .argument_count = 2,
                .argument_types = percent_arguments,
            }};

            static const survey_plugin plugin = {
                .abi_version = SURVEY_PLUGIN_ABI_VERSION,
                .struct_size = sizeof(survey_plugin),
                .name = "\(name)",
                .version = "0.1.0",
                .free_string = free_string,
                .question_type_count = 1,
                .question_types = types,
                .function_count = 1,
                .functions = functions,
                .abi_minor = SURVEY_PLUGIN_ABI_MINOR,
            };

            const survey_plugin *survey_plugin_entry(void) { return &plugin; }

            """
    }

    var makefile: String {
        let library = libraryPath
        return """
            # The \(name) plugin, built with the C compiler alone: `make` writes \(library).
            # `make test` and `make check` need the `survey` command (or SURVEY=/path/to/survey).
            SURVEY ?= survey
            CFLAGS ?= -O2 -g -Wall -Wextra
            PLUGINDIR ?= $(HOME)/.survey/plugins

            \(library): \(name).c survey_plugin.h
            \tcc -shared -fPIC $(CFLAGS) -I . -o $@ \(name).c -lm

            test: \(library)
            \t$(SURVEY) test \(Self.surveyFile) --plugin ./\(library) --answers \(Self.testsFolder)

            check: \(library)
            \t$(SURVEY) plugin check ./\(library) --survey \(Self.surveyFile)

            # Copies the library and its manifest into a directory of SURVEY_PLUGIN_PATH.
            install: \(library) \(manifestPath)
            \tmkdir -p $(PLUGINDIR)
            \tcp \(library) \(manifestPath) $(PLUGINDIR)/

            clean:
            \trm -f \(library)

            .PHONY: test check install clean

            """
    }

    // MARK: Swift

    var packageManifest: String {
        let path = enginePackagePath ?? ".."
        return """
            // swift-tools-version:6.0
            // The \(name) plugin: `swift build` writes \(libraryPath). See README.md.
            import PackageDescription

            let package = Package(
                name: "\(name)",
                products: [
                    // The shared library the engine loads with --plugin.
                    .library(name: "\(typeName)Plugin", type: .dynamic, targets: ["\(typeName)Plugin"])
                ],
                dependencies: [
                    // The engine's package (SurveyCore, SurveyPluginSDK): by path here; a git URL and version
                    // once the engine is published where your team fetches packages from.
                    .package(name: "survey-engine", path: \(swiftStringLiteral(path)))
                ],
                targets: [
                    .target(
                        name: "\(typeName)Plugin",
                        dependencies: [
                            .product(name: "SurveyCore", package: "survey-engine"),
                            .product(name: "SurveyPluginSDK", package: "survey-engine"),
                        ]
                    )
                ]
            )

            """
    }

    var swiftSource: String {
        """
        import SurveyCore
        import SurveyPluginSDK

        /// `\(kindID)`: a whole number from 1 to the option `max` (2 to 10, default 5).
        struct \(typeName)Type: QuestionType {
            var typeID: String { "\(kindID)" }
            var summary: String { "A whole number from 1 to max (default 5)" }

            /// The options: `max`, read (and checked, with its JSON path) like a built-in kind's.
            func makeOptions(from reader: inout OptionsReader) throws(SurveyError) -> Int {
                try reader.int("max", default: 5, in: 2...10)
            }

            /// How the question is asked: a whole number from 1 to `max`.
            func input(for max: Int, in context: PresentationContext) -> InputPrimitive {
                .number(NumberInput(minimum: 1, maximum: Double(max), isInteger: true))
            }

            /// Checks an answer and returns its normal form.
            func normalize(_ answer: JSONValue, options max: Int) throws(AnswerError) -> JSONValue {
                guard let value = answer.numberValue, value == value.rounded(), value >= 1, value <= Double(max) else {
                    throw AnswerError(
                        code: "outOfRange", message: "Choose a whole number from 1 to \\(max).",
                        arguments: ["min": "1", "max": String(max)])
                }
                return .number(value)
            }
        }

        /// `\(functionName)(value, max)`: `value` as a percentage of `max`; NaN (null in expressions) when `max` is 0.
        let percent: @convention(c) (Double, Double) -> Double = { value, max in max == 0 ? .nan : value / max * 100 }

        enum \(typeName)Plugin: SurveyPlugin {
            static let name = "\(name)"
            static let version = "0.1.0"
            static var questionTypes: [any QuestionType] { [\(typeName)Type()] }
            static var functions: [PluginFunction] {
                [PluginFunction(name: "\(functionName)", returns: .double, arguments: [.double, .double], function: percent)]
            }
        }

        // The one export line.
        @_cdecl("survey_plugin_entry") public func surveyPluginEntry() -> UnsafeRawPointer {
            PluginExport.descriptor(for: \(typeName)Plugin.self)
        }

        """
    }

    private func swiftStringLiteral(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

// A plugin exactly as written against ABI 1.0 (built with survey_plugin_v1_0.h, the 1.0 header
// kept verbatim): one question type and one function. A 1.1 engine must load it unchanged.
#include <stdlib.h>
#include <string.h>

#include "survey_plugin_v1_0.h"

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
    (void)type; (void)options;
    if (strcmp(answer, "\"old\"") == 0) return copy("{\"ok\":\"old\"}");
    return copy("{\"error\":{\"code\":\"tooShort\",\"message\":\"Only 'old' will do.\"}}");
}

static double twice(double value) { return 2 * value; }

static const uint32_t twice_arguments[] = {SURVEY_VALUE_DOUBLE};

static const survey_question_type types[] = {{
    .struct_size = sizeof(survey_question_type),
    .collects_answer = 1,
    .type_id = "legacy-text",
    .summary = "A type from an ABI 1.0 plugin",
    .describe = describe,
    .normalize = normalize,
}};

static const survey_function functions[] = {{
    .struct_size = sizeof(survey_function),
    .return_type = SURVEY_VALUE_DOUBLE,
    .name = "legacy_twice",
    .function = (void *)twice,
    .argument_count = 1,
    .argument_types = twice_arguments,
}};

static const survey_plugin plugin = {
    .abi_version = SURVEY_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(survey_plugin),
    .name = "legacy",
    .version = "1.0.0",
    .free_string = free_string,
    .question_type_count = 1,
    .question_types = types,
    .function_count = 1,
    .functions = functions,
};

const survey_plugin *survey_plugin_entry(void) { return &plugin; }

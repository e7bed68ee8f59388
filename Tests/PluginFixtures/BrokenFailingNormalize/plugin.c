// Test fixture: a question type that reports an error for every answer, and rejects options
// containing a member "reject".
#include <stdlib.h>
#include <string.h>

#include "survey_plugin.h"

static char *copy(const char *text) {
    size_t length = strlen(text) + 1;
    char *result = malloc(length);
    if (result) memcpy(result, text, length);
    return result;
}

static void free_string(char *string) { free(string); }

static char *check_options(const survey_question_type *type, const char *options, const char *unused) {
    (void)type, (void)unused;
    if (strstr(options, "\"reject\"")) {
        return copy("{\"error\":{\"message\":\"'reject' is not allowed here\",\"path\":[\"reject\"]}}");
    }
    size_t length = strlen(options);
    char *result = malloc(length + 8);
    if (result) {
        memcpy(result, "{\"ok\":", 6);
        memcpy(result + 6, options, length);
        memcpy(result + 6 + length, "}", 2);
    }
    return result;
}

static char *describe(const survey_question_type *type, const char *options, const char *context) {
    (void)type, (void)options, (void)context;
    return copy("{\"kind\":\"free-text\",\"multiline\":false}");
}

static char *normalize(const survey_question_type *type, const char *options, const char *answer) {
    (void)type, (void)options, (void)answer;
    return copy("{\"error\":{\"code\":\"pluginSaysNo\",\"message\":\"This plugin rejects every answer.\","
                "\"arguments\":{\"reason\":\"test\"}}}");
}

static const survey_question_type types[] = {{
    .struct_size = sizeof(survey_question_type),
    .collects_answer = 1,
    .type_id = "always-fails",
    .summary = "normalize reports an error for every answer",
    .check_options = check_options,
    .describe = describe,
    .normalize = normalize,
}};

static const survey_plugin plugin = {
    .abi_version = SURVEY_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(survey_plugin),
    .name = "broken-failing-normalize",
    .version = "0",
    .free_string = free_string,
    .question_type_count = 1,
    .question_types = types,
};

const survey_plugin *survey_plugin_entry(void) { return &plugin; }

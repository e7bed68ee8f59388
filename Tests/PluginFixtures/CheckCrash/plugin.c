// Checker fixture (rule crash): parse_line reads past an empty line and crashes (a real invalid
// memory access, as a buggy plugin makes).
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

static char *describe(const survey_question_type *type, const char *options, const char *context) {
    (void)type, (void)options, (void)context;
    return copy("{\"kind\":\"free-text\",\"multiline\":false}");
}

static char *normalize(const survey_question_type *type, const char *options, const char *answer) {
    (void)type, (void)options, (void)answer;
    return copy("{\"error\":{\"message\":\"Type some text.\"}}");
}

static char *parse_line(const survey_question_type *type, const char *options, const char *request) {
    (void)type, (void)options;
    if (strstr(request, "\"line\":\"\"")) *(volatile int *)(size_t)8 = 1;
    return copy("{\"ok\":\"typed\"}");
}

static const survey_question_type types[] = {{
    .struct_size = sizeof(survey_question_type),
    .collects_answer = 1,
    .type_id = "fragile",
    .describe = describe,
    .normalize = normalize,
    .parse_line = parse_line,
}};

static const survey_plugin plugin = {
    .abi_version = SURVEY_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(survey_plugin),
    .name = "check-crash",
    .version = "0",
    .free_string = free_string,
    .question_type_count = 1,
    .question_types = types,
};

const survey_plugin *survey_plugin_entry(void) { return &plugin; }

// Checker fixture (rule nondeterministic): the error message counts the calls, so the same answer
// gets a different result each time.
#include <stdio.h>
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
    static _Atomic long calls = 0;
    char buffer[128];
    snprintf(buffer, sizeof buffer, "{\"error\":{\"message\":\"Not yet (attempt %ld).\"}}", ++calls);
    return copy(buffer);
}

static const survey_question_type types[] = {{
    .struct_size = sizeof(survey_question_type),
    .collects_answer = 1,
    .type_id = "counter",
    .describe = describe,
    .normalize = normalize,
}};

static const survey_plugin plugin = {
    .abi_version = SURVEY_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(survey_plugin),
    .name = "check-nondeterministic",
    .version = "0",
    .free_string = free_string,
    .question_type_count = 1,
    .question_types = types,
};

const survey_plugin *survey_plugin_entry(void) { return &plugin; }

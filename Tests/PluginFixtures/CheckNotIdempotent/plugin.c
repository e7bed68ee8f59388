// Checker fixture (rule not-idempotent): a string answer "x" normalises to "x!", which normalises to
// "x!!"; any other answer is refused with a message.
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
    (void)type, (void)options;
    size_t length = strlen(answer);
    if (length < 2 || answer[0] != '"') return copy("{\"error\":{\"message\":\"Type some text.\"}}");
    char *result = malloc(length + 9);
    if (!result) return NULL;
    memcpy(result, "{\"ok\":", 6);
    memcpy(result + 6, answer, length - 1); /* the string without its closing quote */
    memcpy(result + 6 + length - 1, "!\"}", 4);
    return result;
}

static const survey_question_type types[] = {{
    .struct_size = sizeof(survey_question_type),
    .collects_answer = 1,
    .type_id = "exclaim",
    .describe = describe,
    .normalize = normalize,
}};

static const survey_plugin plugin = {
    .abi_version = SURVEY_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(survey_plugin),
    .name = "check-not-idempotent",
    .version = "0",
    .free_string = free_string,
    .question_type_count = 1,
    .question_types = types,
};

const survey_plugin *survey_plugin_entry(void) { return &plugin; }

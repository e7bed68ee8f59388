// Checker fixture (rule leak): free_string does not free, so every returned string is kept.
#include <stdlib.h>
#include <string.h>

#include "survey_plugin.h"

static char *copy(const char *text) {
    size_t length = strlen(text) + 1;
    char *result = malloc(length);
    if (result) memcpy(result, text, length);
    return result;
}

static void keep_string(char *string) { (void)string; }

static char *describe(const survey_question_type *type, const char *options, const char *context) {
    (void)type, (void)options, (void)context;
    return copy("{\"kind\":\"free-text\",\"multiline\":false}");
}

static char *normalize(const survey_question_type *type, const char *options, const char *answer) {
    (void)type, (void)options, (void)answer;
    return copy("{\"ok\":\"accepted, and this string is never freed\"}");
}

static const survey_question_type types[] = {{
    .struct_size = sizeof(survey_question_type),
    .collects_answer = 1,
    .type_id = "leaky",
    .describe = describe,
    .normalize = normalize,
}};

static const survey_plugin plugin = {
    .abi_version = SURVEY_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(survey_plugin),
    .name = "check-leak",
    .version = "0",
    .free_string = keep_string,
    .question_type_count = 1,
    .question_types = types,
};

const survey_plugin *survey_plugin_entry(void) { return &plugin; }

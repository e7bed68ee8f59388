// An ABI 1.2 plugin with a computed kind: `doubled` (options {"of": "<question id>"}) is never
// asked; its value is the expression `{<of>} * 2`, returned by computed_expression.
#include <stdlib.h>
#include <string.h>

#include <survey_plugin.h>

static char *copy(const char *text) {
    size_t length = strlen(text) + 1;
    char *result = malloc(length);
    if (result) memcpy(result, text, length);
    return result;
}

static void free_string(char *string) { free(string); }

static char *describe(const survey_question_type *type, const char *options, const char *context) {
    (void)type; (void)options; (void)context;
    return copy("{\"kind\":\"number\"}");
}

static char *normalize(const survey_question_type *type, const char *options, const char *answer) {
    (void)type; (void)options;
    char *result = malloc(strlen(answer) + 8);
    if (result) { strcpy(result, "{\"ok\":"); strcat(result, answer); strcat(result, "}"); }
    return result;
}

/* The options are compact JSON written by the engine: {"of":"<id>"}; ids are letters, digits and '-'. */
static char *computed_expression(const survey_question_type *type, const char *options, const char *unused) {
    (void)type; (void)unused;
    const char *of = strstr(options, "\"of\":\"");
    if (!of) return copy("{\"error\":{\"message\":\"'of' names the question to double\",\"path\":[\"of\"]}}");
    of += 6;
    size_t length = strcspn(of, "\"");
    char *result = malloc(length + 32);
    if (!result) return NULL;
    strcpy(result, "{\"ok\":\"{");
    strncat(result, of, length);
    strcat(result, "} * 2\"}");
    return result;
}

static const survey_question_type types[] = {{
    .struct_size = sizeof(survey_question_type),
    .collects_answer = 1,
    .type_id = "doubled",
    .summary = "Twice another question's answer (computed)",
    .describe = describe,
    .normalize = normalize,
    .computed_expression = computed_expression,
}};

static const survey_plugin plugin = {
    .abi_version = SURVEY_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(survey_plugin),
    .name = "computed",
    .version = "1.2.0",
    .free_string = free_string,
    .question_type_count = 1,
    .question_types = types,
    .abi_minor = SURVEY_PLUGIN_ABI_MINOR,
};

const survey_plugin *survey_plugin_entry(void) { return &plugin; }

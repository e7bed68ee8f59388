// An example plugin in plain C: the `emoji-rating` question type (a face from 1 to 3 or 5).
//
// Written from docs/plugin-abi.md alone; it needs no JSON library because the host passes
// compact JSON (no insignificant whitespace).
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

// Options are `{}` or `{"faces":3}` / `{"faces":5}`; returns 0 when they are not.
static int faces_of(const char *options) {
    int faces = 0, end = 0;
    if (strcmp(options, "{}") == 0) return 5;
    if (sscanf(options, "{\"faces\":%d}%n", &faces, &end) == 1 && end == (int)strlen(options) &&
        (faces == 3 || faces == 5))
        return faces;
    return 0;
}

static char *check_options(const survey_question_type *type, const char *options, const char *unused) {
    (void)type;
    (void)unused;
    int faces = faces_of(options);
    if (faces == 0)
        return copy("{\"error\":{\"message\":\"'faces' must be 3 or 5 (the only option)\",\"path\":[\"faces\"]}}");
    char buffer[64];
    snprintf(buffer, sizeof buffer, "{\"ok\":{\"faces\":%d}}", faces);
    return copy(buffer);
}

static char *describe(const survey_question_type *type, const char *options, const char *context) {
    (void)type;
    const char *worst = "\xF0\x9F\x98\x9E";  // disappointed face
    const char *best = "\xF0\x9F\x98\x8D";   // smiling face with heart-eyes
    char buffer[256];
    if (strstr(context, "\"locale\":\"fr\"")) {
        worst = "Pas du tout";
        best = "Beaucoup";
    }
    snprintf(buffer, sizeof buffer,
             "{\"kind\":\"number\",\"min\":1,\"max\":%d,\"step\":1,\"integer\":true,"
             "\"minLabel\":\"%s\",\"maxLabel\":\"%s\",\"presentation\":\"emoji\"}",
             faces_of(options), worst, best);
    return copy(buffer);
}

static char *normalize(const survey_question_type *type, const char *options, const char *answer) {
    (void)type;
    int faces = faces_of(options);
    // Accept 4 or "4".
    const char *digits = answer[0] == '"' ? answer + 1 : answer;
    char *end = NULL;
    double value = strtod(digits, &end);
    int quoted = answer[0] == '"';
    int valid = end != digits && (quoted ? strcmp(end, "\"") == 0 : *end == '\0');
    if (!valid || value != (double)(int)value || value < 1 || value > faces) {
        char buffer[200];
        snprintf(buffer, sizeof buffer,
                 "{\"error\":{\"code\":\"outOfRange\",\"message\":\"Choose a face from 1 to %d.\","
                 "\"arguments\":{\"min\":\"1\",\"max\":\"%d\"}}}",
                 faces, faces);
        return copy(buffer);
    }
    char buffer[32];
    snprintf(buffer, sizeof buffer, "{\"ok\":%d}", (int)value);
    return copy(buffer);
}

static const survey_question_type types[] = {{
    .struct_size = sizeof(survey_question_type),
    .collects_answer = 1,
    .type_id = "emoji-rating",
    .summary = "A rating with faces, 1 (sad) to 3 or 5 (delighted)",
    .options_schema = "{\"type\":\"object\",\"properties\":{\"faces\":{\"enum\":[3,5]}},\"additionalProperties\":false}",
    .check_options = check_options,
    .describe = describe,
    .normalize = normalize,
    .parse_line = NULL,  // the host parses numbers
    .summarize = NULL,   // the host counts values and computes the mean
}};

static const survey_plugin plugin = {
    .abi_version = SURVEY_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(survey_plugin),
    .name = "c-star",
    .version = "1.0.0",
    .free_string = free_string,
    .question_type_count = 1,
    .question_types = types,
    .function_count = 0,
    .functions = NULL,
};

const survey_plugin *survey_plugin_entry(void) { return &plugin; }

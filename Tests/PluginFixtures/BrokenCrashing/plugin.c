// Test fixture for --isolate-plugins: a free-text type whose normalize crashes on an answer
// containing "crash", never returns on one containing "loop", prints to standard output on one
// containing "print" (which must not disturb the plugin host's protocol) and accepts anything else;
// and a function double_or_crash(x) that crashes when x is negative.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "survey_plugin.h"

/* A real invalid memory access, as a buggy plugin makes (raise() could be caught and resumed). */
static void crash(void) { *(volatile int *)(size_t)8 = 1; }

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
    if (strstr(answer, "crash")) crash();
    if (strstr(answer, "loop")) {
        for (volatile int spin = 0;; spin++) {}
    }
    if (strstr(answer, "print")) {
        printf("{\"json\":\"not from the host\"}\n");
        fflush(stdout);
    }
    size_t length = strlen(answer);
    char *result = malloc(length + 8);
    if (result) {
        memcpy(result, "{\"ok\":", 6);
        memcpy(result + 6, answer, length);
        memcpy(result + 6 + length, "}", 2);
    }
    return result;
}

static double double_or_crash(double x) {
    if (x < 0) crash();
    return 2 * x;
}

static const survey_question_type types[] = {{
    .struct_size = sizeof(survey_question_type),
    .collects_answer = 1,
    .type_id = "crashy",
    .summary = "normalize crashes on 'crash' and loops on 'loop'",
    .describe = describe,
    .normalize = normalize,
}};

static const uint32_t double_argument[] = {SURVEY_VALUE_DOUBLE};

static const survey_function functions[] = {{
    .struct_size = sizeof(survey_function),
    .name = "double_or_crash",
    .function = (void *)double_or_crash,
    .return_type = SURVEY_VALUE_DOUBLE,
    .argument_count = 1,
    .argument_types = double_argument,
}};

static const survey_plugin plugin = {
    .abi_version = SURVEY_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(survey_plugin),
    .name = "broken-crashing",
    .version = "0",
    .free_string = free_string,
    .question_type_count = 1,
    .question_types = types,
    .function_count = 1,
    .functions = functions,
};

const survey_plugin *survey_plugin_entry(void) { return &plugin; }

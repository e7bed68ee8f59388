// An example plugin in plain C exporting expression functions, called by the engine through libffi:
//   bmi(weight_kg, height_cm) -> double     e.g. visibleIf "bmi({weight}, {height}) >= 25"
//   initials(name) -> string                 e.g. "Ada Lovelace" -> "AL"
//   is_adult(age) -> bool                    an int64 argument
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "survey_plugin.h"

static void free_string(char *string) { free(string); }

static double bmi(double weight_kg, double height_cm) {
    double meters = height_cm / 100.0;
    if (meters <= 0) return 0.0 / 0.0;  // NaN: the engine turns it into null
    return weight_kg / (meters * meters);
}

static char *initials(const char *name) {
    char *result = malloc(strlen(name) + 1);
    if (!result) return NULL;
    size_t count = 0;
    int at_word_start = 1;
    for (const unsigned char *c = (const unsigned char *)name; *c; c++) {
        if (isspace(*c) || *c == '-') {
            at_word_start = 1;
        } else {
            if (at_word_start && *c < 0x80) result[count++] = (char)toupper(*c);
            at_word_start = 0;
        }
    }
    result[count] = '\0';
    return result;
}

static bool is_adult(int64_t age) { return age >= 18; }

static const uint32_t two_doubles[] = {SURVEY_VALUE_DOUBLE, SURVEY_VALUE_DOUBLE};
static const uint32_t one_string[] = {SURVEY_VALUE_STRING};
static const uint32_t one_int64[] = {SURVEY_VALUE_INT64};

static const survey_function functions[] = {
    {.struct_size = sizeof(survey_function), .return_type = SURVEY_VALUE_DOUBLE, .name = "bmi",
     .function = (void *)bmi, .argument_count = 2, .argument_types = two_doubles},
    {.struct_size = sizeof(survey_function), .return_type = SURVEY_VALUE_STRING, .name = "initials",
     .function = (void *)initials, .argument_count = 1, .argument_types = one_string},
    {.struct_size = sizeof(survey_function), .return_type = SURVEY_VALUE_BOOL, .name = "is_adult",
     .function = (void *)is_adult, .argument_count = 1, .argument_types = one_int64},
};

static const survey_plugin plugin = {
    .abi_version = SURVEY_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(survey_plugin),
    .name = "health-functions",
    .version = "1.0.0",
    .free_string = free_string,
    .function_count = sizeof functions / sizeof functions[0],
    .functions = functions,
};

const survey_plugin *survey_plugin_entry(void) { return &plugin; }

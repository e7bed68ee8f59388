// Test fixture: declares an ABI version this engine does not read.
#include <stdlib.h>

#include "survey_plugin.h"

static void free_string(char *string) { free(string); }

static const survey_plugin plugin = {
    .abi_version = 99,
    .struct_size = sizeof(survey_plugin),
    .name = "broken-abi-version",
    .version = "0",
    .free_string = free_string,
};

const survey_plugin *survey_plugin_entry(void) { return &plugin; }

// Test fixture: the right ABI version but a descriptor size from a different header.
#include <stdlib.h>

#include "survey_plugin.h"

static void free_string(char *string) { free(string); }

static const survey_plugin plugin = {
    .abi_version = SURVEY_PLUGIN_ABI_VERSION,
    .struct_size = 8,
    .name = "broken-struct-size",
    .version = "0",
    .free_string = free_string,
};

const survey_plugin *survey_plugin_entry(void) { return &plugin; }

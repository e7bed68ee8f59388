// The ABI is header-only (include/survey_plugin.h); SwiftPM needs one source file per C target.
#include "survey_plugin.h"

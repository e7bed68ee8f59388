// Test fixture: a shared library that is not a survey plugin (no survey_plugin_entry).
int broken_no_entry_answer(void) { return 42; }

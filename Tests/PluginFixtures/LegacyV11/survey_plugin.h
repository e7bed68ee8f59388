/*
 * survey_plugin.h — the C ABI between the survey engine and a plugin shared library.
 *
 * ABI version 1.1. Full documentation: docs/plugin-abi.md.
 *
 * Growing the ABI: the major version (`abi_version`) changes only for incompatible changes. Minor
 * versions only append fields at the end of a struct; every struct starts with its `struct_size`,
 * and a host reads only the fields that size covers (a field past it counts as NULL / 0). So a
 * plugin built against the 1.0 header loads in a 1.1 host unchanged, and a 1.1 plugin whose
 * structs are declared at their 1.0 sizes (SURVEY_PLUGIN_V1_0_*_SIZE) loads in a 1.0 host too.
 *
 * A plugin is a shared object exporting one function, `survey_plugin_entry`, that returns a
 * pointer to a `survey_plugin` descriptor. Everything else is exchanged as UTF-8 JSON text:
 *   - strings the host passes in are owned by the host and valid only during the call;
 *   - every `char *` a plugin returns is allocated by the plugin and released by the host,
 *     exactly once, with the descriptor's `free_string`;
 *   - the descriptor, and every string and array it points to, are owned by the plugin and
 *     must stay valid and unchanged while the library is loaded (the host never unloads it).
 * Callbacks may be called from several threads at once and must be reentrant.
 */
#ifndef SURVEY_PLUGIN_H
#define SURVEY_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The major ABI version this header describes. A host loads only plugins with the same major version. */
#define SURVEY_PLUGIN_ABI_VERSION 1u

/** The minor ABI version this header describes (1.1). Plugins put it in `survey_plugin.abi_minor`. */
#define SURVEY_PLUGIN_ABI_MINOR 1u

/** The name of the one symbol a plugin exports. */
#define SURVEY_PLUGIN_ENTRY_SYMBOL "survey_plugin_entry"

/** Argument and return types of expression functions (`survey_function.return_type`, `argument_types`). */
enum survey_value_type {
    SURVEY_VALUE_DOUBLE = 1, /* C `double` */
    SURVEY_VALUE_INT64 = 2,  /* C `int64_t` */
    SURVEY_VALUE_BOOL = 3,   /* C `_Bool` / `bool` (one byte, 0 or 1) */
    SURVEY_VALUE_STRING = 4  /* `const char *` argument (host-owned) / `char *` result (plugin-owned, may be NULL) */
};

typedef struct survey_question_type survey_question_type;

/**
 * Returns a newly allocated, NUL-terminated UTF-8 JSON text (released by the host with
 * `free_string`), or NULL on failure (the host reports "the plugin returned no result").
 */
typedef char *(*survey_json_callback)(const survey_question_type *type, const char *first_json,
                                      const char *second_json);

/** One question type. */
struct survey_question_type {
    /** `sizeof(survey_question_type)` as compiled by the plugin. */
    uint32_t struct_size;
    /** Non-zero when questions of this type take an answer; 0 for content steps. */
    uint32_t collects_answer;
    /** The stable type id used in survey files: lower-case letters, digits and '-', e.g. "emoji-rating". */
    const char *type_id;
    /** A one-line description shown by `survey types`. */
    const char *summary;
    /** A JSON Schema (text) for the question's `options` object, or NULL. Must be valid JSON when set. */
    const char *options_schema;
    /** Free for the plugin's own use (the host never reads or writes it). */
    void *user_data;

    /**
     * check_options(type, options_json, NULL) -> result JSON.
     * Validates a question's `options` object (`{}` when the survey gives none); returns
     * `{"ok": <options>}` or `{"error": {"message": "...", "path": ["member", 0]}}`.
     * May be NULL: every options object is accepted.
     */
    survey_json_callback check_options;

    /**
     * describe(type, options_json, context_json) -> input primitive JSON.
     * How a question with these (already checked) options is asked, with texts in the
     * context's locale. Required.
     */
    survey_json_callback describe;

    /**
     * normalize(type, options_json, answer_json) -> result JSON.
     * Checks an answer; returns `{"ok": <normalised answer>}` or `{"error": {"code": "...",
     * "message": "...", "arguments": {...}, "field": "..."}}`. Required.
     */
    survey_json_callback normalize;

    /**
     * parse_line(type, options_json, request_json) -> result JSON.
     * `request_json` is `{"line": "<typed text>", "context": <context>}`. Turns a line typed in a
     * terminal into an answer (normalize runs afterwards). May be NULL: the host parses the
     * line according to the input primitive.
     */
    survey_json_callback parse_line;

    /**
     * summarize(type, options_json, request_json) -> summary JSON.
     * `request_json` is `{"answers": [...], "context": <context>}`. May be NULL: the host
     * summarises according to the input primitive.
     */
    survey_json_callback summarize;

    /* ---- ABI 1.1 (read only when struct_size covers them) ---- */

    /**
     * normalize_localized(type, options_json, request_json) -> result JSON, like `normalize`.
     * `request_json` is `{"answer": <answer>, "context": <context>}`: write the error `message` in
     * the context's locale; the host shows it exactly as written. May be NULL: the host calls
     * `normalize` (whose messages are shown as written too, falling back to the host's template
     * for a built-in `code` only when the message is empty).
     */
    survey_json_callback normalize_localized;
};

/** `survey_function.flags` (ABI 1.1): the C function takes one more, last argument `char **error`.
 * It sets `*error` to a message allocated by the plugin (released with `free_string`) to report that
 * it could not compute a value; the host then uses no value (`null`) and logs the message. */
#define SURVEY_FUNCTION_REPORTS_ERRORS 1u

/** One expression function, called through libffi with exactly the declared C signature. */
typedef struct survey_function {
    /** `sizeof(survey_function)` as compiled by the plugin. */
    uint32_t struct_size;
    /** The return type, a `survey_value_type`. */
    uint32_t return_type;
    /** The name used in expressions: letters, digits and '_', e.g. "bmi". */
    const char *name;
    /** The C function, e.g. `double bmi(double, double)`, cast to `void *`. */
    void *function;
    /** How many arguments it takes (0...16). */
    uint32_t argument_count;
    /** `argument_count` `survey_value_type` values, one per argument. */
    const uint32_t *argument_types;

    /* ---- ABI 1.1 ---- */

    /** A bitwise or of `SURVEY_FUNCTION_*` flags; 0 for none. */
    uint32_t flags;
} survey_function;

/** The descriptor `survey_plugin_entry` returns. */
typedef struct survey_plugin {
    /** Must be `SURVEY_PLUGIN_ABI_VERSION`. Never moves: always the first field. */
    uint32_t abi_version;
    /** `sizeof(survey_plugin)` as compiled by the plugin (at least SURVEY_PLUGIN_V1_0_PLUGIN_SIZE).
     * Never moves: always the second field. */
    uint32_t struct_size;
    /** The plugin's name, e.g. "color-picker". */
    const char *name;
    /** The plugin's version, e.g. "1.0.0". */
    const char *version;
    /** Releases a string returned by any callback or string-returning function. Required. */
    void (*free_string)(char *string);
    /** How many question types `question_types` points to (may be 0). */
    uint32_t question_type_count;
    /** An array of `question_type_count` question types. */
    const survey_question_type *question_types;
    /** How many functions `functions` points to (may be 0). */
    uint32_t function_count;
    /** An array of `function_count` functions. */
    const survey_function *functions;

    /* ---- ABI 1.1 ---- */

    /** The minor ABI version the plugin was built against: `SURVEY_PLUGIN_ABI_MINOR`. */
    uint32_t abi_minor;
} survey_plugin;

/* The sizes of the ABI 1.0 structs (on this platform): a host accepts any struct_size from these up.
 * The elements of `question_types` and `functions` are read `struct_size` bytes apart, so all the
 * elements of one array must declare the same `struct_size`. */
#define SURVEY_PLUGIN_V1_0_QUESTION_TYPE_SIZE ((uint32_t)offsetof(survey_question_type, normalize_localized))
#define SURVEY_PLUGIN_V1_0_FUNCTION_SIZE ((uint32_t)(offsetof(survey_function, argument_types) + sizeof(const uint32_t *)))
#define SURVEY_PLUGIN_V1_0_PLUGIN_SIZE ((uint32_t)(offsetof(survey_plugin, functions) + sizeof(const survey_function *)))

/** The entry point every plugin exports. Called once per load; must not fail (return NULL only on a fatal problem). */
const survey_plugin *survey_plugin_entry(void);

/** The type of `survey_plugin_entry`, for hosts that look it up with dlsym. */
typedef const survey_plugin *(*survey_plugin_entry_function)(void);

#ifdef __cplusplus
}
#endif

#endif /* SURVEY_PLUGIN_H */

// libffi for Swift, with accessors for the `ffi_type_*` globals (mutable C globals are not
// usable from Swift 6 strict concurrency).
#include <ffi.h>

static inline ffi_type *survey_ffi_type_void(void) { return &ffi_type_void; }
static inline ffi_type *survey_ffi_type_double(void) { return &ffi_type_double; }
static inline ffi_type *survey_ffi_type_sint64(void) { return &ffi_type_sint64; }
static inline ffi_type *survey_ffi_type_uint8(void) { return &ffi_type_uint8; }
static inline ffi_type *survey_ffi_type_pointer(void) { return &ffi_type_pointer; }

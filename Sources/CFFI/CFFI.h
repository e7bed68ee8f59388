// libffi for Swift, with accessors for the `ffi_type_*` globals (mutable C globals are not
// usable from Swift 6 strict concurrency).
#include <ffi.h>

static inline ffi_type *survey_ffi_type_void(void) { return &ffi_type_void; }
static inline ffi_type *survey_ffi_type_double(void) { return &ffi_type_double; }
static inline ffi_type *survey_ffi_type_sint64(void) { return &ffi_type_sint64; }
static inline ffi_type *survey_ffi_type_uint8(void) { return &ffi_type_uint8; }
static inline ffi_type *survey_ffi_type_pointer(void) { return &ffi_type_pointer; }

#include <malloc.h>

/* Bytes the C heap has handed out and not taken back (glibc 2.33 and later; 0 elsewhere): how the
   plugin checker (`survey plugin check`, rule leak) sees a plugin's callbacks keep memory. */
static inline size_t survey_heap_in_use(void) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
#else
    return 0;
#endif
}

/* libffi for Swift. Swift 6 rejects `&ffi_type_double` and friends as not concurrency-safe
 * globals, so the type descriptors are reached through these accessors. */
#include <ffi.h>
#include <stdint.h>

static inline ffi_type *cffi_type_void(void) { return &ffi_type_void; }
static inline ffi_type *cffi_type_uint8(void) { return &ffi_type_uint8; }
static inline ffi_type *cffi_type_sint32(void) { return &ffi_type_sint32; }
static inline ffi_type *cffi_type_sint64(void) { return &ffi_type_sint64; }
static inline ffi_type *cffi_type_double(void) { return &ffi_type_double; }
static inline ffi_type *cffi_type_pointer(void) { return &ffi_type_pointer; }
static inline ffi_abi cffi_default_abi(void) { return FFI_DEFAULT_ABI; }
static inline unsigned short cffi_struct_type_id(void) { return FFI_TYPE_STRUCT; }

/* Calls of the plugin ABI's member shapes through a prepared cif. The argument slots and libffi's
 * `void **` list live in this frame, on the caller's stack: building them is a few stores, there is
 * nothing to allocate, and two threads calling the same member (which the host may do on different
 * configurations) never share a slot. */

/* `void set(config, descriptor, T value)`; `value` points to the T. */
static inline void cffi_call_setter(ffi_cif *cif, void (*function)(void), void *config,
                                    const void *descriptor, void *value) {
    void *arguments[3] = { &config, &descriptor, value };
    ffi_arg ignored;
    ffi_call(cif, function, &ignored, arguments);
}

static inline void cffi_call_setter_int64(ffi_cif *cif, void (*function)(void), void *config,
                                          const void *descriptor, int64_t value) {
    cffi_call_setter(cif, function, config, descriptor, &value);
}

static inline void cffi_call_setter_double(ffi_cif *cif, void (*function)(void), void *config,
                                           const void *descriptor, double value) {
    cffi_call_setter(cif, function, config, descriptor, &value);
}

/* C99 bool crosses as one byte (the cif says uint8). */
static inline void cffi_call_setter_bool(ffi_cif *cif, void (*function)(void), void *config,
                                         const void *descriptor, _Bool value) {
    uint8_t byte = value ? 1 : 0;
    cffi_call_setter(cif, function, config, descriptor, &byte);
}

/* `T get(config, descriptor)`; `result` holds at least sizeof(ffi_arg) and sizeof(T) bytes. */
static inline void cffi_call_getter(ffi_cif *cif, void (*function)(void), void *config,
                                    const void *descriptor, void *result) {
    void *arguments[2] = { &config, &descriptor };
    ffi_call(cif, function, result, arguments);
}

/* libffi for Swift. Swift 6 rejects `&ffi_type_double` and friends as not concurrency-safe
 * globals, so the type descriptors are reached through these accessors. */
#include <ffi.h>

static inline ffi_type *cffi_type_void(void) { return &ffi_type_void; }
static inline ffi_type *cffi_type_uint8(void) { return &ffi_type_uint8; }
static inline ffi_type *cffi_type_sint32(void) { return &ffi_type_sint32; }
static inline ffi_type *cffi_type_sint64(void) { return &ffi_type_sint64; }
static inline ffi_type *cffi_type_double(void) { return &ffi_type_double; }
static inline ffi_type *cffi_type_pointer(void) { return &ffi_type_pointer; }
static inline ffi_abi cffi_default_abi(void) { return FFI_DEFAULT_ABI; }
static inline unsigned short cffi_struct_type_id(void) { return FFI_TYPE_STRUCT; }

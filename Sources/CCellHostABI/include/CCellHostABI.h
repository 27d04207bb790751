/* The plugin ABI as a C module for Swift code (the host's CellPlugins and the CellHostSDK).
 * The contract itself lives in SDK/include/cellhost/plugin.h. */
#include "../../../SDK/include/cellhost/plugin.h"

#include <stddef.h>

/* Host-side helper: copies `length` bytes at `address` into `out` if that memory is mapped and
 * readable, and returns 0; returns -1 otherwise. Lets the loader tell a garbage descriptor
 * pointer from a real one without faulting. Hidden: a Swift plugin links this module too, and
 * must export nothing but its entry. */
__attribute__((visibility("hidden"))) int cellhost_probe_read(const void *address, void *out, size_t length);

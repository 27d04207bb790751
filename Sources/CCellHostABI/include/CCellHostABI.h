/* The host's side of the plugin ABI for Swift code (CellPlugins, CellValidation): the SDK's C
 * module (plugin.h, re-exported, so host and SDK share one set of C types) and the loader's
 * memory probe, which no plugin links. */
#include "CellHostPluginABI.h"

#include <stddef.h>

/* Copies `length` bytes at `address` into `out` if that memory is mapped and readable, and
 * returns 0; returns -1 otherwise. Lets the loader tell a garbage descriptor pointer from a real
 * one without faulting. */
int cellhost_probe_read(const void *address, void *out, size_t length);

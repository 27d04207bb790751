/* descriptor: each call of the entry returns a different descriptor (built on the fly). */
#define REPLACE_ENTRY
#include "base.h"
#include "tables.h"
CELLHOST_EXPORT const cellhost_plugin_descriptor *cellhost_plugin_entry(void) {
    static cellhost_plugin_descriptor copies[2];
    static int calls;
    cellhost_plugin_descriptor *d = &copies[calls++ % 2];
    *d = descriptor;
    d->version = calls == 1 ? "1.0.0" : "1.0.1";
    return d;
}

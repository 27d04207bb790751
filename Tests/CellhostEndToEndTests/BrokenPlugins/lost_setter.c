/* property-roundtrip: the setter of `count` writes a field the getter never reads. */
#define REPLACE_SET_COUNT
#include "base.h"
static void set_count(cellhost_config *c, const cellhost_property *p, int64_t v) {
    (void)p; c->shadow = v; c->customized |= 1u << P_COUNT;
}
#include "tables.h"

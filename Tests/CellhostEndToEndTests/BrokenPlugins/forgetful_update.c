/* updated-keeps-customized: restyles the tint even when the user set it. */
#define REPLACE_UPDATED
#include "base.h"
static cellhost_config *updated_for_state(const cellhost_config *c, const cellhost_state *s) {
    cellhost_config *d = copy_config(c);
    d->tint = tint_for(s);
    return d;
}
#include "tables.h"

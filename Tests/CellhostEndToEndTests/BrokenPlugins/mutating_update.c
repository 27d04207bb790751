/* updated-leaves-original: restyles the configuration it was given instead of a copy. */
#define REPLACE_UPDATED
#include "base.h"
static cellhost_config *updated_for_state(const cellhost_config *c, const cellhost_state *s) {
    cellhost_config *original = (cellhost_config *)c;
    if (!(c->customized & (1u << P_TINT))) original->tint = tint_for(s);
    return copy_config(original);
}
#include "tables.h"

/* fuzz-states: a hairline width in device pixels that assumes @2x or more (integer division by
 * zero at @1x). */
#define REPLACE_UPDATED
#include "base.h"
static cellhost_config *updated_for_state(const cellhost_config *c, const cellhost_state *s) {
    cellhost_config *d = copy_config(c);
    volatile int extra_pixels = (int)s->traits.display_scale - 1;
    int hairline = 100 / extra_pixels;
    if (!(c->customized & (1u << P_TINT))) {
        d->tint = tint_for(s);
        d->tint.alpha = hairline > 50 ? 0.9 : 1.0;
    }
    return d;
}
#include "tables.h"

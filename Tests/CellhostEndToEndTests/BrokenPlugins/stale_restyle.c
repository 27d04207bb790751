/* pure-restyle: declares CELLHOST_CONFIG_PURE_RESTYLE, but a highlight dims the tint the
 * configuration had before, so a highlight after a highlight dims twice. */
#define REPLACE_UPDATED
#include "base.h"
static cellhost_config *updated_for_state(const cellhost_config *c, const cellhost_state *s) {
    cellhost_config *d = copy_config(c);
    if (!(c->customized & (1u << P_TINT))) {
        double alpha = c->tint.alpha;
        d->tint = tint_for(s);
        if (s->flags & CELLHOST_STATE_HIGHLIGHTED) d->tint.alpha = alpha * 0.5;
    }
    return d;
}
#include "tables.h"

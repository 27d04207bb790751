/* extra-traits: Bold Text (ABI 1.2) draws the bar taller, but equal() ignores the weight the
 * restyle kept, so restyles with and without Bold Text compare equal. */
#define REPLACE_UPDATED
#define REPLACE_DRAW
#include "base.h"
static cellhost_config *updated_for_state(const cellhost_config *c, const cellhost_state *s) {
    cellhost_config *d = copy_config(c);
    if (!(c->customized & (1u << P_TINT))) d->tint = tint_for(s);
    d->shadow = CELLHOST_HAS_FIELD(s, cellhost_state, extra_traits)
        && s->extra_traits.legibility_weight == CELLHOST_LEGIBILITY_BOLD;
    return d;
}
static void view_draw(cellhost_view *v, cellhost_rect b, const cellhost_context *ctx, cellhost_canvas *canvas) {
    (void)ctx;
    const cellhost_config *c = v->config;
    host->fill(canvas, b, (cellhost_color){ 1, 1, 1, 1 });
    host->rounded_rect(canvas, (cellhost_rect){ b.x + 16, b.y + 8, (b.width - 32) * c->value, c->shadow ? 9 : 6 }, 3, c->tint);
}
#include "tables.h"

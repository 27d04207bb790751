/* The action bump, performed with an ordinary amount, leaves a configuration whose
 * size_that_fits is infinite; only hostile amounts (which it refuses) and no action at all are
 * harmless. The host must refuse the size the action's result asks for. */
#define REPLACE_BUMP
#define REPLACE_SIZE
#include "base.h"
static bool bump(cellhost_config *c, const cellhost_action *a, int64_t by) {
    (void)a;
    if (by < -1000 || by > 1000) return false;
    c->count += by;
    if (by == 2) c->shadow = 1;
    return true;
}
static cellhost_size view_size(cellhost_view *v, cellhost_size target, const cellhost_context *ctx) {
    (void)ctx;
    return (cellhost_size){ target.width, v->config->shadow ? 1.0 / 0.0 : 44 };
}
#include "tables.h"

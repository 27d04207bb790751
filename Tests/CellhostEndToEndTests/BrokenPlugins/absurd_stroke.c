/* Drawing strokes a border 1e300 points wide: the host must refuse the canvas call. */
#define REPLACE_DRAW
#include "base.h"
static void view_draw(cellhost_view *v, cellhost_rect b, const cellhost_context *ctx, cellhost_canvas *canvas) {
    (void)ctx;
    host->fill(canvas, b, v->config->tint);
    host->stroke(canvas, b, 4, 1e300, v->config->tint);
}
#include "tables.h"

/* The watchdog: drawing never returns. */
#define REPLACE_DRAW
#include "base.h"
static void view_draw(cellhost_view *v, cellhost_rect b, const cellhost_context *ctx, cellhost_canvas *canvas) {
    (void)ctx;
    volatile int spin = 1;
    while (spin) {}
    host->fill(canvas, b, v->config->tint);
}
#include "tables.h"

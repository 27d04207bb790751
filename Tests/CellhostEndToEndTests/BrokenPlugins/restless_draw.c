/* deterministic-drawing: every draw differs from the last (a frame counter leaks into it). */
#define REPLACE_DRAW
#include "base.h"
static void view_draw(cellhost_view *v, cellhost_rect b, const cellhost_context *ctx, cellhost_canvas *canvas) {
    (void)ctx;
    static int frame;
    frame++;
    host->fill(canvas, b, (cellhost_color){ 1, 1, 1, 1 });
    host->rounded_rect(canvas, (cellhost_rect){ b.x + 16, b.y + 8, (b.width - 32) * v->config->value + frame % 7, 6 },
                       3, v->config->tint);
}
#include "tables.h"

/* Hands the canvas or measure_text one unusable value, chosen by -DCASE=n (see PluginValueTests). */
#define REPLACE_DRAW
#include "base.h"
#include <math.h>
static void view_draw(cellhost_view *v, cellhost_rect b, const cellhost_context *ctx, cellhost_canvas *canvas) {
    (void)v;
    cellhost_color nan_red = { NAN, 0, 0, 1 }, black = { 0, 0, 0, 1 };
    cellhost_font font = host->default_font(&ctx->traits, CELLHOST_TEXT_STYLE_BODY);
    cellhost_text_request request = { CELLHOST_HEADER(cellhost_text_request), "x", 1, font, 1, 4 };
    cellhost_text_run run = { CELLHOST_HEADER(cellhost_text_run), request, black, b, 0 };
    switch (CASE) {
    case 0: host->fill(canvas, b, nan_red); break;
    case 1: host->fill(canvas, (cellhost_rect){ 0, 0, INFINITY, 10 }, black); break;
    case 2: host->rounded_rect(canvas, b, 1e300, black); break;
    case 3: run.text.font.point_size = 100000; host->text(canvas, &run); break;
    case 4: run.text.length = 10 * 1000 * 1000; host->text(canvas, &run); break;
    case 5: host->push_alpha(canvas, NAN); break;
    case 6: host->symbol(canvas, "star.fill", b, INFINITY, 0, black); break;
    case 7: host->measure_text(ctx, &request, NAN); break;
    case 8: host->push_clip(canvas, (cellhost_rect){ -1e308, 0, 10, 10 }, 0); break;
    }
}
#include "tables.h"

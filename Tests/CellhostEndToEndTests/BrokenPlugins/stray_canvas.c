/* Keeps the canvas and context of one draw call and uses them again after the call returned, and
 * from a thread of its own: the host must refuse both uses and log them, never dereference them. */
#define REPLACE_DRAW
#include "base.h"
#include <pthread.h>
static cellhost_canvas *kept_canvas;
static const cellhost_context *kept_context;
static void *draw_from_thread(void *canvas) {
    host->fill((cellhost_canvas *)canvas, (cellhost_rect){ 0, 0, 10, 10 }, (cellhost_color){ 1, 0, 0, 1 });
    return NULL;
}
static void view_draw(cellhost_view *v, cellhost_rect b, const cellhost_context *ctx, cellhost_canvas *canvas) {
    if (kept_canvas) {
        host->fill(kept_canvas, b, (cellhost_color){ 1, 0, 0, 1 });
        cellhost_text_request request = { CELLHOST_HEADER(cellhost_text_request), "x", 1,
                                          host->default_font(&ctx->traits, CELLHOST_TEXT_STYLE_BODY), 1, 4 };
        host->measure_text(kept_context, &request, 100);
    }
    pthread_t thread;
    if (pthread_create(&thread, NULL, draw_from_thread, canvas) == 0) pthread_join(thread, NULL);
    host->fill(canvas, b, v->config->tint);
    kept_canvas = canvas;
    kept_context = ctx;
}
#include "tables.h"

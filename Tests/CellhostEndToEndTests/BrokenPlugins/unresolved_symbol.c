/* strict-load: draw calls a function no library defines. Lazy binding would load it and crash
 * at the first draw; RTLD_NOW refuses it up front. */
#define REPLACE_DRAW
#include "base.h"
void cellhost_validation_undefined_function(void);
static void view_draw(cellhost_view *v, cellhost_rect b, const cellhost_context *ctx, cellhost_canvas *canvas) {
    (void)v; (void)b; (void)ctx; (void)canvas;
    cellhost_validation_undefined_function();
}
#include "tables.h"

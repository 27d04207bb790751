/* size_that_fits returns an infinite height once the title is set: the host must refuse it. */
#define REPLACE_SIZE
#include "base.h"
static cellhost_size view_size(cellhost_view *v, cellhost_size target, const cellhost_context *ctx) {
    (void)ctx;
    return (cellhost_size){ target.width, v->config->title[0] ? 1.0 / 0.0 : 44 };
}
#include "tables.h"

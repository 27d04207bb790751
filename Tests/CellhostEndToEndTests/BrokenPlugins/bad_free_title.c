/* Crash reports: setting a title frees a pointer the allocator never returned (glibc prints
 * "free(): invalid pointer" and aborts) — on an item's first `set`. */
#define REPLACE_SET_TITLE
#include "base.h"
static volatile size_t title_offset = 1;
static void set_title(cellhost_config *c, const cellhost_property *p, const char *v) {
    (void)p;
    free(c->title + title_offset);
    c->title = dup_string(v);
    c->customized |= 1u << P_TITLE;
}
#include "tables.h"

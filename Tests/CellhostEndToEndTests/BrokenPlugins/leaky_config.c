/* lifecycle-memory: every configuration allocates a scratch buffer that is never freed. */
#define REPLACE_COPY
#include "base.h"
static cellhost_config *copy_config(const cellhost_config *c) {
    cellhost_config *d = malloc(sizeof *d);
    *d = *c;
    d->title = dup_string(c->title);
    char *scratch = malloc(16 * 1024);
    memset(scratch, 1, 16 * 1024);
    d->box = (int64_t *)scratch;
    return d;
}
#include "tables.h"

/* value-semantics: copies share the storage of `count`, so changing a copy changes the original. */
#define REPLACE_MAKE_DEFAULT
#define REPLACE_GET_COUNT
#define REPLACE_SET_COUNT
#include "base.h"
static cellhost_config *make_default() {
    cellhost_config *c = calloc(1, sizeof *c);
    c->title = dup_string("");
    c->tint = tint_for(NULL);
    c->enabled = true;
    static int64_t shared;
    c->box = &shared;
    return c;
}
static int64_t get_count(const cellhost_config *c, const cellhost_property *p) { (void)p; return *c->box; }
static void set_count(cellhost_config *c, const cellhost_property *p, int64_t v) {
    (void)p; *c->box = v; c->customized |= 1u << P_COUNT;
}
#include "tables.h"

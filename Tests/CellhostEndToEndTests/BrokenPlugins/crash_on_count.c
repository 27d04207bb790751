/* Crash reports: a count of 13 dereferences NULL (SIGSEGV inside the plugin's setter). */
#define REPLACE_SET_COUNT
#include "base.h"
static void set_count(cellhost_config *c, const cellhost_property *p, int64_t v) {
    (void)p;
    if (v == 13) *(volatile int *)0 = 1;
    c->count = v;
    c->customized |= 1u << P_COUNT;
}
#include "tables.h"

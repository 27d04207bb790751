/* fuzz-values: the clamp lets NaN through, and the value then indexes a table of labels. */
#define REPLACE_SET_VALUE
#include "base.h"
static const char *const labels[] = { "0%", "10%", "20%", "30%", "40%", "50%", "60%", "70%", "80%", "90%", "100%" };
static void set_value(cellhost_config *c, const cellhost_property *p, double v) {
    (void)p;
    if (v < 0) v = 0;
    if (v > 1) v = 1;
    c->value = v;
    free(c->title);
    c->title = dup_string(labels[(int)(v * 10)]);
    c->customized |= 1u << P_VALUE;
}
#include "tables.h"

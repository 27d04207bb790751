/* supports-consistency: says it can show any configuration but ignores the one it is given. */
#define REPLACE_VIEW_SET
#include "base.h"
static void view_set(cellhost_view *v, const cellhost_config *c) { (void)v; (void)c; }
#include "tables.h"

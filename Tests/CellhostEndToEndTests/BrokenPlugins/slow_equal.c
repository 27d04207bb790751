/* call-duration: equality takes 150 ms (it re-renders both configurations to compare them). */
#define _POSIX_C_SOURCE 199309L
#include <time.h>
#define REPLACE_EQUAL
#include "base.h"
static bool equal_configs(const cellhost_config *a, const cellhost_config *b) {
    struct timespec t = { 0, 150 * 1000000L };
    nanosleep(&t, NULL);
    return a->value == b->value && a->count == b->count && strcmp(a->title, b->title) == 0
        && a->tint.red == b->tint.red && a->tint.green == b->tint.green && a->tint.blue == b->tint.blue
        && a->tint.alpha == b->tint.alpha && a->enabled == b->enabled && a->customized == b->customized;
}
#include "tables.h"

/* Crash reports: the plugin's init prints a line, then dereferences NULL while loading. */
#define REPLACE_INIT
#include <stdio.h>
#include "base.h"
static bool init(const cellhost_host *h) {
    host = h;
    fputs("crash_in_init: about to fail\n", stderr);
    *(volatile int *)0 = 1;
    return true;
}
#include "tables.h"

/* load-time: init does expensive work before returning (INIT_DELAY_MS, 1200 by default). */
#define _POSIX_C_SOURCE 199309L
#include <time.h>
#define REPLACE_INIT
#include "base.h"
#ifndef INIT_DELAY_MS
#define INIT_DELAY_MS 1200
#endif
static bool init(const cellhost_host *h) {
    struct timespec t = { INIT_DELAY_MS / 1000, (INIT_DELAY_MS % 1000) * 1000000L };
    nanosleep(&t, NULL);
    host = h;
    return true;
}
#include "tables.h"

/* The worker's channel is untrusted: at a count of 13 this plugin writes to the channel's
 * descriptor (fd 3) what -DWRITES= picks, then carries on (or, with -DTHEN_EXIT, exits 0 as a
 * clean worker would):
 *   1  old-style trace-record lines: a record of the event and an "ok" end record;
 *   2  garbage bytes;
 *   3  a frame header with a huge length, using whatever token it finds in the environment;
 *   4  plain text.
 * With -DIN_INIT it writes in init instead, before any count is set (as `validate` loads it). */
#define REPLACE_SET_COUNT
#ifdef IN_INIT
#define REPLACE_INIT
#endif
#include "base.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void write_all(const char *bytes, size_t n) {
    while (n > 0) {
        ssize_t w = write(3, bytes, n);
        if (w <= 0) return;
        bytes += w;
        n -= (size_t)w;
    }
}

static void write_to_channel(void) {
#if WRITES == 1
    const char *lines =
        "{\"record\":\"event\",\"event\":2,\"line\":6,\"summary\":\"a: count=13\",\"start\":1,\"updates\":[],\"frames\":[],"
        "\"timings\":{\"update\":0,\"layout\":0,\"draw\":0,\"raster\":0,\"composite\":0,\"encode\":0}}\n"
        "{\"record\":\"end\",\"outcome\":\"ok\",\"events\":2,\"frames\":0,"
        "\"timings\":{\"update\":0,\"layout\":0,\"draw\":0,\"raster\":0,\"composite\":0,\"encode\":0}}\n";
    write_all(lines, strlen(lines));
#elif WRITES == 2
    char garbage[300];
    for (size_t i = 0; i < sizeof garbage; i++) garbage[i] = (char)(i * 37 + 11);
    write_all(garbage, sizeof garbage);
#elif WRITES == 3
    const char *token = getenv("CELLHOST_CHANNEL_TOKEN");
    char header[64];
    int n = snprintf(header, sizeof header, "%.16s%08x%02x%08x", token ? token : "0123456789abcdef", 5u, 0x14u, 0xffffffffu);
    write_all(header, (size_t)n);
#else
    const char *text = "hello from the plugin\n";
    write_all(text, strlen(text));
#endif
}

static void set_count(cellhost_config *c, const cellhost_property *p, int64_t v) {
    (void)p;
    if (v == 13) {
        write_to_channel();
#ifdef THEN_EXIT
        _exit(0);
#endif
    }
    c->count = v;
    c->customized |= 1u << P_COUNT;
}

#ifdef IN_INIT
static bool init(const cellhost_host *h) {
    host = h;
    write_to_channel();
    return true;
}
#endif
#include "tables.h"

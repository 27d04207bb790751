/*
 * A plugin that misbehaves only for some values, states or actions, so only a check that drives
 * it there finds the fault. The test compiles it with -DFAULT_<WHAT> and -DWHEN_<TRIGGER>:
 *   FAULT_NAN_SIZE  size_that_fits returns a NaN height for the configuration the trigger made;
 *   FAULT_FORK      starts a process;  FAULT_SOCKET  opens a network socket;
 *   FAULT_STDOUT    prints to standard output (fd 1, through stdio);
 *   FAULT_CHANNEL   writes plain text to the worker's channel (fd 3).
 *   WHEN_COUNT_42   when count is set to 42 (an ordinary value, but not the first one tried);
 *   WHEN_SWIPED     when updated_for_state meets a swiped state;
 *   WHEN_DISABLED   when updated_for_state meets a disabled state;
 *   WHEN_BUMP_42    when the action bump is performed with 42.
 */
#define _GNU_SOURCE
#define REPLACE_SET_COUNT
#define REPLACE_UPDATED
#define REPLACE_BUMP
#define REPLACE_SIZE
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>
#include "base.h"

/* Does what -DFAULT_ picks; for a NaN size, marks the configuration it is given. */
static void misbehave(cellhost_config *made) {
#if defined(FAULT_NAN_SIZE)
    made->shadow = 1;
#elif defined(FAULT_FORK)
    (void)made;
    if (fork() == 0) _exit(0);
#elif defined(FAULT_SOCKET)
    (void)made;
    socket(AF_INET, SOCK_STREAM, 0);
#elif defined(FAULT_STDOUT)
    printf("debug: count is %lld\n", (long long)made->count);
#elif defined(FAULT_CHANNEL)
    (void)made;
    const char text[] = "hello from the plugin\n";
    if (write(3, text, sizeof text - 1) < 0) return;
#endif
}

static void set_count(cellhost_config *c, const cellhost_property *p, int64_t v) {
    (void)p;
    c->count = v;
    c->customized |= 1u << P_COUNT;
#ifdef WHEN_COUNT_42
    if (v == 42) misbehave(c);
#endif
}

static cellhost_config *updated_for_state(const cellhost_config *c, const cellhost_state *s) {
    cellhost_config *d = copy_config(c);
    if (!(c->customized & (1u << P_TINT))) d->tint = tint_for(s);
#if defined(WHEN_SWIPED)
    if (s->flags & CELLHOST_STATE_SWIPED) misbehave(d);
#elif defined(WHEN_DISABLED)
    if (s->flags & CELLHOST_STATE_DISABLED) misbehave(d);
#endif
    return d;
}

static bool bump(cellhost_config *c, const cellhost_action *a, int64_t by) {
    (void)a;
    if (by < -1000 || by > 1000) return false;
    c->count += by;
#ifdef WHEN_BUMP_42
    if (by == 42) misbehave(c);
#endif
    return true;
}

static cellhost_size view_size(cellhost_view *v, cellhost_size target, const cellhost_context *ctx) {
    (void)ctx;
    if (v->config->shadow) return (cellhost_size){ target.width, __builtin_nan("") };
    return (cellhost_size){ target.width, 44 + (v->config->title[0] ? 20 : 0) };
}
#include "tables.h"

/*
 * A small, well-behaved plugin that the broken plugins next to this file start from. Each broken
 * plugin defines REPLACE_<FUNCTION> for the one function it gets wrong, includes this header,
 * writes its own version of that function, then includes tables.h. Built alone (good.c) it
 * passes every check of `cellhost validate`.
 */
#include "cellhost/plugin.h"

#include <stdlib.h>
#include <string.h>

static const cellhost_host *host;

enum { P_VALUE, P_COUNT, P_TITLE, P_TINT, P_ENABLED };

struct cellhost_config {
    double value;          /* 0…1 */
    int64_t count;
    char *title;           /* malloc'd, never NULL */
    cellhost_color tint;
    bool enabled;
    uint32_t customized;   /* 1 << P_* */
    int64_t *box;          /* used by plugins that share storage on purpose */
    int64_t shadow;        /* used by plugins whose setter writes the wrong field */
};

struct cellhost_view { cellhost_config *config; };

static cellhost_config *make_default();
static cellhost_config *copy_config(const cellhost_config *c);
static void destroy_config(cellhost_config *c);
static bool equal_configs(const cellhost_config *a, const cellhost_config *b);
static cellhost_config *updated_for_state(const cellhost_config *c, const cellhost_state *s);
static bool is_customized(const cellhost_config *c, const char *name);
static void set_value(cellhost_config *c, const cellhost_property *p, double v);
static void set_count(cellhost_config *c, const cellhost_property *p, int64_t v);
static void set_title(cellhost_config *c, const cellhost_property *p, const char *v);
static cellhost_view *make_view(const cellhost_config *initial);
static bool view_supports(const cellhost_view *v, const cellhost_config *candidate);
static void view_set(cellhost_view *v, const cellhost_config *c);
static cellhost_size view_size(cellhost_view *v, cellhost_size target, const cellhost_context *ctx);
static void view_draw(cellhost_view *v, cellhost_rect b, const cellhost_context *ctx, cellhost_canvas *canvas);
static bool init(const cellhost_host *h);
static const void *get_extension(const char *id);

static char *dup_string(const char *s) {
    size_t n = strlen(s);
    char *d = malloc(n + 1);
    memcpy(d, s, n + 1);
    return d;
}

static cellhost_color tint_for(const cellhost_state *s) {
    if (s && (s->flags & CELLHOST_STATE_SELECTED)) return (cellhost_color){ 0, 0.5, 0, 1 };
    return (cellhost_color){ 0, 0, 1, 1 };
}

#ifndef REPLACE_MAKE_DEFAULT
/* No prototype: make_default's parameter list is not used here. */
static cellhost_config *make_default() {
    cellhost_config *c = calloc(1, sizeof *c);
    c->title = dup_string("");
    c->tint = tint_for(NULL);
    c->enabled = true;
    return c;
}
#endif

#ifndef REPLACE_COPY
static cellhost_config *copy_config(const cellhost_config *c) {
    cellhost_config *d = malloc(sizeof *d);
    *d = *c;
    d->title = dup_string(c->title);
    return d;
}
#endif

#ifndef REPLACE_DESTROY
static void destroy_config(cellhost_config *c) {
    free(c->title);
    free(c);
}
#endif

#ifndef REPLACE_EQUAL
static bool equal_configs(const cellhost_config *a, const cellhost_config *b) {
    return a->value == b->value && a->count == b->count && strcmp(a->title, b->title) == 0
        && a->tint.red == b->tint.red && a->tint.green == b->tint.green && a->tint.blue == b->tint.blue
        && a->tint.alpha == b->tint.alpha && a->enabled == b->enabled && a->customized == b->customized;
}
#endif

#ifndef REPLACE_UPDATED
static cellhost_config *updated_for_state(const cellhost_config *c, const cellhost_state *s) {
    cellhost_config *d = copy_config(c);
    if (!(c->customized & (1u << P_TINT))) d->tint = tint_for(s);
    return d;
}
#endif

static bool is_customized(const cellhost_config *c, const char *name) {
    static const char *const names[] = { "value", "count", "title", "tint", "enabled" };
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(names[i], name) == 0) return (c->customized >> i) & 1;
    return false;
}

static double get_value(const cellhost_config *c, const cellhost_property *p) { (void)p; return c->value; }
#ifndef REPLACE_SET_VALUE
static void set_value(cellhost_config *c, const cellhost_property *p, double v) {
    (void)p;
    c->value = v != v ? 0 : v < 0 ? 0 : v > 1 ? 1 : v;
    c->customized |= 1u << P_VALUE;
}
#endif
#ifndef REPLACE_GET_COUNT
static int64_t get_count(const cellhost_config *c, const cellhost_property *p) { (void)p; return c->count; }
#endif
#ifndef REPLACE_SET_COUNT
static void set_count(cellhost_config *c, const cellhost_property *p, int64_t v) {
    (void)p; c->count = v; c->customized |= 1u << P_COUNT;
}
#endif
static const char *get_title(const cellhost_config *c, const cellhost_property *p) { (void)p; return c->title; }
#ifndef REPLACE_SET_TITLE
static void set_title(cellhost_config *c, const cellhost_property *p, const char *v) {
    (void)p; free(c->title); c->title = dup_string(v); c->customized |= 1u << P_TITLE;
}
#endif
static cellhost_color get_tint(const cellhost_config *c, const cellhost_property *p) { (void)p; return c->tint; }
static void set_tint(cellhost_config *c, const cellhost_property *p, cellhost_color v) {
    (void)p; c->tint = v; c->customized |= 1u << P_TINT;
}
static bool get_enabled(const cellhost_config *c, const cellhost_property *p) { (void)p; return c->enabled; }
static void set_enabled(cellhost_config *c, const cellhost_property *p, bool v) {
    (void)p; c->enabled = v; c->customized |= 1u << P_ENABLED;
}

#ifndef REPLACE_BUMP
static bool bump(cellhost_config *c, const cellhost_action *a, int64_t by) {
    (void)a;
    if (by < -1000 || by > 1000) return false;
    c->count += by;
    return true;
}
#endif

#ifndef REPLACE_MAKE_VIEW
static cellhost_view *make_view(const cellhost_config *initial) {
    cellhost_view *v = malloc(sizeof *v);
    v->config = copy_config(initial);
    return v;
}
#endif

#ifndef REPLACE_SUPPORTS
static bool view_supports(const cellhost_view *v, const cellhost_config *candidate) {
    (void)v; (void)candidate;
    return true;
}
#endif

#ifndef REPLACE_VIEW_SET
static void view_set(cellhost_view *v, const cellhost_config *c) {
    destroy_config(v->config);
    v->config = copy_config(c);
}
#endif

#ifndef REPLACE_SIZE
static cellhost_size view_size(cellhost_view *v, cellhost_size target, const cellhost_context *ctx) {
    (void)ctx;
    return (cellhost_size){ target.width, 44 + (v->config->title[0] ? 20 : 0) };
}
#endif

#ifndef REPLACE_DRAW
static void view_draw(cellhost_view *v, cellhost_rect b, const cellhost_context *ctx, cellhost_canvas *canvas) {
    (void)ctx;
    const cellhost_config *c = v->config;
    host->fill(canvas, b, (cellhost_color){ 1, 1, 1, 1 });
    host->rounded_rect(canvas, (cellhost_rect){ b.x + 16, b.y + 8, (b.width - 32) * c->value, 6 }, 3, c->tint);
    if (c->title[0]) {
        cellhost_text_run run = { CELLHOST_HEADER(cellhost_text_run),
            { CELLHOST_HEADER(cellhost_text_request), c->title, strlen(c->title),
              host->default_font(&ctx->traits, CELLHOST_TEXT_STYLE_BODY), 1, 4 },
            { 0, 0, 0, 1 }, { b.x + 16, b.y + 20, b.width - 32, 20 }, 0 };
        host->text(canvas, &run);
    }
}
#endif

static void destroy_view(cellhost_view *v) {
    destroy_config(v->config);
    free(v);
}

#ifndef REPLACE_INIT
static bool init(const cellhost_host *h) {
    host = h;
    return true;
}
#endif

#ifndef REPLACE_GET_EXTENSION
static const void *get_extension(const char *id) {
    (void)id;
    return NULL;
}
#endif

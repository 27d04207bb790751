/*
 * Progress meter: a sample cellhost plugin written in C against plugin.h alone.
 *
 *   cc $(cellhost sdk --cflags) -shared -fPIC -o progress.so Plugins/ProgressMeter/progress_meter.c
 *
 * One configuration type, com.cellhost.samples.progress, with a property of every encoding and
 * an action with arguments, advance(double by, bool animated). It restyles itself per state
 * (highlighted, selected, disabled, a custom "paused" state) unless the property was customised,
 * and its view supports only configurations of the same style (bar or ring): a style change
 * makes the host build a new view.
 */
#include "cellhost/plugin.h"

#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

static const cellhost_host *host;

enum { STYLE_BAR = 0, STYLE_RING = 1 };

/* Bits of `customized`, one per property, in property order. */
enum { P_PROGRESS, P_TINT, P_TITLE, P_STYLE, P_SHOWS_PERCENTAGE, P_MINIMUM_SIZE, P_INSETS, P_TINT_TRANSFORMER, P_COUNT };

/* The opaque handle types of plugin.h are the plugin's to define. */
struct cellhost_config {
    double progress;             /* 0…1 */
    cellhost_color tint;
    char *title;                 /* malloc'd, never NULL */
    int64_t style;
    bool shows_percentage;
    cellhost_size minimum_size;
    cellhost_insets insets;
    cellhost_color_transformer tint_transformer; /* NULL = none */
    uint32_t customized;         /* 1 << P_* */
    double track_alpha;          /* state styling, not a property */
};

static char *dup_string(const char *s) {
    size_t n = strlen(s);
    char *d = malloc(n + 1);
    memcpy(d, s, n + 1);
    return d;
}

static cellhost_config *make_default(const cellhost_config_type *type) {
    (void)type;
    cellhost_config *c = calloc(1, sizeof *c);
    c->progress = 0;
    c->tint = (cellhost_color){0, 122.0 / 255, 1, 1};
    if (host) host->system_color(NULL, "systemBlue", &c->tint);
    c->title = dup_string("");
    c->style = STYLE_BAR;
    c->shows_percentage = true;
    c->minimum_size = (cellhost_size){0, 44};
    c->insets = (cellhost_insets){11, 16, 11, 16};
    c->track_alpha = 0.2;
    return c;
}

static cellhost_config *copy_config(const cellhost_config *c) {
    cellhost_config *d = malloc(sizeof *d);
    *d = *c;
    d->title = dup_string(c->title);
    return d;
}

static void destroy_config(cellhost_config *c) {
    if (!c) return;
    free(c->title);
    free(c);
}

static bool same_color(cellhost_color a, cellhost_color b) {
    return a.red == b.red && a.green == b.green && a.blue == b.blue && a.alpha == b.alpha;
}

static bool equal_configs(const cellhost_config *a, const cellhost_config *b) {
    return a->progress == b->progress && same_color(a->tint, b->tint) && strcmp(a->title, b->title) == 0
        && a->style == b->style && a->shows_percentage == b->shows_percentage
        && a->minimum_size.width == b->minimum_size.width && a->minimum_size.height == b->minimum_size.height
        && a->insets.top == b->insets.top && a->insets.leading == b->insets.leading
        && a->insets.bottom == b->insets.bottom && a->insets.trailing == b->insets.trailing
        && a->tint_transformer == b->tint_transformer && a->customized == b->customized
        && a->track_alpha == b->track_alpha;
}

static bool custom_state_on(const cellhost_state *s, const char *key) {
    for (uint32_t i = 0; i < s->custom_state_count; i++) {
        const cellhost_custom_state *c = &s->custom_states[i];
        if (strcmp(c->key, key) != 0) continue;
        switch (c->kind) {
        case CELLHOST_VALUE_BOOL: return c->value.b;
        case CELLHOST_VALUE_INT: return c->value.i != 0;
        case CELLHOST_VALUE_DOUBLE: return c->value.d != 0;
        default: return c->value.s && c->value.s[0];
        }
    }
    return false;
}

/* The state styling: tint and transformer follow the state unless customised. */
static cellhost_config *updated_for_state(const cellhost_config *c, const cellhost_state *s) {
    cellhost_config *d = copy_config(c);
    const cellhost_traits *t = &s->traits;
    if (!(c->customized & (1u << P_TINT))) {
        const char *name = "systemBlue";
        if (s->flags & CELLHOST_STATE_SELECTED) name = "systemGreen";
        if (custom_state_on(s, "paused")) name = "systemOrange";
        /* Pure (CELLHOST_CONFIG_PURE_RESTYLE): an unknown name gives a fixed blue, never the
         * tint of an earlier restyle. */
        if (!host->system_color(t, name, &d->tint)) d->tint = (cellhost_color){ 0.0, 0.48, 1.0, 1.0 };
        if (s->flags & CELLHOST_STATE_HIGHLIGHTED) d->tint.alpha = 0.6;
    }
    if (!(c->customized & (1u << P_TINT_TRANSFORMER)))
        d->tint_transformer = (s->flags & CELLHOST_STATE_DISABLED) ? host->color_transformer("grayscale") : NULL;
    d->track_alpha = (s->flags & CELLHOST_STATE_HIGHLIGHTED) ? 0.35 : 0.2;
    return d;
}

static bool is_customized(const cellhost_config *c, const char *name);

/* The cell-level hook (UIKit's updateConfiguration(using:)): while the cell is being edited the
 * percentage gives way to the editing controls, unless the author set showsPercentage. */
static cellhost_config *update_configuration(const cellhost_config *c, const cellhost_state *s) {
    if (!(s->flags & CELLHOST_STATE_EDITING) || !c->shows_percentage || (c->customized & (1u << P_SHOWS_PERCENTAGE)))
        return NULL;
    cellhost_config *d = copy_config(c);
    d->shows_percentage = false;
    return d;
}

/* ---- properties ---- */

static double get_progress(const cellhost_config *c, const cellhost_property *p) { (void)p; return c->progress; }
static void set_progress(cellhost_config *c, const cellhost_property *p, double v) {
    (void)p;
    c->progress = v < 0 ? 0 : v > 1 ? 1 : v;
    c->customized |= 1u << P_PROGRESS;
}
static cellhost_color get_tint(const cellhost_config *c, const cellhost_property *p) { (void)p; return c->tint; }
static void set_tint(cellhost_config *c, const cellhost_property *p, cellhost_color v) {
    (void)p; c->tint = v; c->customized |= 1u << P_TINT;
}
static const char *get_title(const cellhost_config *c, const cellhost_property *p) { (void)p; return c->title; }
static void set_title(cellhost_config *c, const cellhost_property *p, const char *v) {
    (void)p; free(c->title); c->title = dup_string(v ? v : ""); c->customized |= 1u << P_TITLE;
}
static int64_t get_style(const cellhost_config *c, const cellhost_property *p) { (void)p; return c->style; }
static void set_style(cellhost_config *c, const cellhost_property *p, int64_t v) {
    (void)p;
    if (v != STYLE_BAR && v != STYLE_RING) {
        host->log(CELLHOST_LOG_WARNING, "progress: style must be 0 (bar) or 1 (ring); kept the old style");
        return;
    }
    c->style = v; c->customized |= 1u << P_STYLE;
}
static bool get_shows(const cellhost_config *c, const cellhost_property *p) { (void)p; return c->shows_percentage; }
static void set_shows(cellhost_config *c, const cellhost_property *p, bool v) {
    (void)p; c->shows_percentage = v; c->customized |= 1u << P_SHOWS_PERCENTAGE;
}
static cellhost_size get_min(const cellhost_config *c, const cellhost_property *p) { (void)p; return c->minimum_size; }
static void set_min(cellhost_config *c, const cellhost_property *p, cellhost_size v) {
    (void)p; c->minimum_size = v; c->customized |= 1u << P_MINIMUM_SIZE;
}
static cellhost_insets get_insets(const cellhost_config *c, const cellhost_property *p) { (void)p; return c->insets; }
static void set_insets(cellhost_config *c, const cellhost_property *p, cellhost_insets v) {
    (void)p; c->insets = v; c->customized |= 1u << P_INSETS;
}
static cellhost_color_transformer get_tt(const cellhost_config *c, const cellhost_property *p) { (void)p; return c->tint_transformer; }
static void set_tt(cellhost_config *c, const cellhost_property *p, cellhost_color_transformer v) {
    (void)p; c->tint_transformer = v; c->customized |= 1u << P_TINT_TRANSFORMER;
}

#define PROPERTY(n, enc, g, s) { CELLHOST_HEADER(cellhost_property), n, enc, (cellhost_fn)g, (cellhost_fn)s, NULL }
static const cellhost_property properties[P_COUNT] = {
    PROPERTY("progress", "d", get_progress, set_progress),
    PROPERTY("tint", "{Color=dddd}", get_tint, set_tint),
    PROPERTY("title", "*", get_title, set_title),
    PROPERTY("style", "q", get_style, set_style),
    PROPERTY("showsPercentage", "B", get_shows, set_shows),
    PROPERTY("minimumSize", "{Size=dd}", get_min, set_min),
    PROPERTY("contentInsets", "{Insets=dddd}", get_insets, set_insets),
    PROPERTY("tintTransformer", "@T", get_tt, set_tt),
};

static bool is_customized(const cellhost_config *c, const char *name) {
    for (int i = 0; i < P_COUNT; i++)
        if (strcmp(properties[i].name, name) == 0) return (c->customized >> i) & 1u;
    return false;
}

/* ---- actions ---- */

static bool advance(cellhost_config *c, const cellhost_action *a, double by, bool animated) {
    (void)a;
    if (by != by) { host->log(CELLHOST_LOG_WARNING, "progress: advance(by:) got NaN"); return false; }
    (void)animated; /* frames are discrete: animated and immediate advances land the same */
    set_progress(c, &properties[P_PROGRESS], c->progress + by);
    return true;
}

static bool reset(cellhost_config *c, const cellhost_action *a) {
    (void)a;
    c->progress = 0;
    c->customized &= ~(1u << P_PROGRESS);
    return true;
}

static const cellhost_action actions[] = {
    { CELLHOST_HEADER(cellhost_action), "advance", "dB", "by,animated", (cellhost_fn)advance, NULL },
    { CELLHOST_HEADER(cellhost_action), "reset", "", NULL, (cellhost_fn)reset, NULL },
};

/* ---- the view ---- */

struct cellhost_view { cellhost_config *config; };

static cellhost_view *make_view(const cellhost_config *initial) {
    cellhost_view *v = malloc(sizeof *v);
    v->config = copy_config(initial);
    return v;
}

static bool view_supports(const cellhost_view *v, const cellhost_config *candidate) {
    return v->config->style == candidate->style;
}

static void view_set(cellhost_view *v, const cellhost_config *c) {
    destroy_config(v->config);
    v->config = copy_config(c);
}

static cellhost_font label_font(const cellhost_context *ctx) {
    return host->default_font(&ctx->traits, CELLHOST_TEXT_STYLE_BODY);
}

static cellhost_text_request request_for(const char *text, cellhost_font font) {
    cellhost_text_request r = { CELLHOST_HEADER(cellhost_text_request), text, strlen(text), font, 1, 4 };
    return r;
}

static cellhost_size view_size(cellhost_view *v, cellhost_size target, const cellhost_context *ctx) {
    const cellhost_config *c = v->config;
    double bar = c->style == STYLE_RING ? 28 : 6;
    double text_height = 0;
    if (c->title[0]) {
        cellhost_text_request r = request_for(c->title, label_font(ctx));
        cellhost_text_metrics m = host->measure_text(ctx, &r, target.width - c->insets.leading - c->insets.trailing);
        text_height = m.size.height + 6;
    }
    double h = c->insets.top + text_height + bar + c->insets.bottom;
    if (h < c->minimum_size.height) h = c->minimum_size.height;
    /* Insets and the minimum size come from streams as they are (negative, or as large as the
       stream allows): the host refuses a height that is not a finite length, so keep it one. */
    if (!isfinite(h) || h < 0) h = 0;
    if (h > 10000) h = 10000;
    return (cellhost_size){ target.width, h };
}

static void view_draw(cellhost_view *v, cellhost_rect b, const cellhost_context *ctx, cellhost_canvas *canvas) {
    const cellhost_config *c = v->config;
    cellhost_color tint = c->tint_transformer ? c->tint_transformer(c->tint) : c->tint;
    double x = b.x + c->insets.leading, y = b.y + c->insets.top;
    double w = b.width - c->insets.leading - c->insets.trailing;
    if (c->title[0]) {
        cellhost_text_run run = { CELLHOST_HEADER(cellhost_text_run), request_for(c->title, label_font(ctx)), {0, 0, 0, 1},
                                  {0, 0, 0, 0}, 0 };
        host->system_color(&ctx->traits, "label", &run.color);
        cellhost_text_metrics m = host->measure_text(ctx, &run.text, w);
        run.frame = (cellhost_rect){ x, y, w, m.size.height };
        host->text(canvas, &run);
        if (c->shows_percentage) {
            char pct[16];
            snprintf(pct, sizeof pct, "%d%%", (int)(c->progress * 100 + 0.5));
            cellhost_text_run p = run;
            p.text = request_for(pct, run.text.font);
            host->system_color(&ctx->traits, "secondaryLabel", &p.color);
            p.alignment = 3;
            host->text(canvas, &p);
        }
        y += m.size.height + 6;
    }
    cellhost_color track = tint;
    track.alpha *= c->track_alpha;
    if (c->style == STYLE_RING) {
        cellhost_rect ring = { x, y, 28, 28 };
        host->stroke(canvas, ring, 14, 4, track);
        host->push_clip(canvas, (cellhost_rect){ x, y + 28 * (1 - c->progress), 28, 28 * c->progress }, 0);
        host->stroke(canvas, ring, 14, 4, tint);
        host->pop_clip(canvas);
    } else {
        host->rounded_rect(canvas, (cellhost_rect){ x, y, w, 6 }, 3, track);
        if (c->progress > 0) host->rounded_rect(canvas, (cellhost_rect){ x, y, w * c->progress, 6 }, 3, tint);
    }
}

static void destroy_view(cellhost_view *v) {
    destroy_config(v->config);
    free(v);
}

static const cellhost_view_type view_type = {
    CELLHOST_HEADER(cellhost_view_type),
    make_view,
    view_supports,
    view_set,
    view_size,
    view_draw,
    destroy_view,
};

/* The descriptor's strings, named once: the metadata section below repeats them, and
 * `cellhost validate` fails the plugin when the two disagree. */
#define METERS_PLUGIN_ID "com.cellhost.samples.meters"
#define METERS_NAME "Progress meters"
#define METERS_VERSION "1.0.0"
#define METERS_VENDOR "cellhost samples"
#define METERS_DESCRIPTION "A progress bar or ring with a title, written in C against plugin.h alone."
#define PROGRESS_TYPE_ID "com.cellhost.samples.progress"

static const cellhost_config_type progress_type = {
    CELLHOST_HEADER(cellhost_config_type),
    PROGRESS_TYPE_ID,
    "Progress meter",
    properties, P_COUNT,
    actions, sizeof actions / sizeof actions[0],
    make_default,
    copy_config,
    destroy_config,
    equal_configs,
    updated_for_state,
    is_customized,
    &view_type,
    update_configuration,
    NULL,
    CELLHOST_CONFIG_PURE_RESTYLE,
};

static bool init(const cellhost_host *h) {
    host = h;
    return true;
}

static const cellhost_config_type *const types[] = { &progress_type };

static const cellhost_plugin_descriptor descriptor = {
    CELLHOST_HEADER(cellhost_plugin_descriptor),
    CELLHOST_DESCRIPTOR_MAGIC,
    METERS_PLUGIN_ID,
    METERS_NAME,
    METERS_VERSION,
    METERS_VENDOR,
    METERS_DESCRIPTION,
    types, 1,
    init,
    NULL,
};

/* What `cellhost inspect --no-load` reads without running this file. */
CELLHOST_METADATA(METERS_PLUGIN_ID, METERS_NAME, METERS_VERSION, METERS_VENDOR, METERS_DESCRIPTION,
                  CELLHOST_METADATA_TYPES(PROGRESS_TYPE_ID));

CELLHOST_EXPORT const cellhost_plugin_descriptor *cellhost_plugin_entry(void) {
    return &descriptor;
}

/// The C project of `cellhost new`: `plugin.c` against plugin.h alone, a Makefile whose
/// default target builds the library with `cc $(cellhost sdk --cflags) -shared -fPIC`, and a
/// .gitignore. The Makefile calls the tool that generated it while that file exists, else
/// `cellhost` on PATH, so `make` works right after `new` and after installing alike.
enum CPluginTemplate {
    static func files(for project: PluginProject) -> [PluginProject.File] {
        [
            .init(path: "plugin.c", text: source(project.name)),
            .init(path: "Makefile", text: makefile(project)),
            .init(path: ".gitignore", text: "*.so\n"),
        ]
    }

    static func makefile(_ project: PluginProject) -> String {
        let library = project.builtLibrary
        return """
            # Builds \(library) from plugin.c: `make`. Also: `make inspect`, `make validate`, `make run`.
            # The tool that generated this project while it exists, else `cellhost` on PATH;
            # override with `make CELLHOST=/path/to/cellhost`.
            CELLHOST ?= $(firstword $(wildcard \(project.toolPath)) cellhost)
            CC ?= cc
            CFLAGS ?= -O2 -g -Wall -Wextra

            \(library): plugin.c
            \tflags="$$($(CELLHOST) sdk --cflags)" && $(CC) $$flags $(CFLAGS) -fvisibility=hidden -shared -fPIC plugin.c -o $@

            inspect validate: \(library)
            \t$(CELLHOST) $@ ./\(library)

            run: \(library)
            \t$(CELLHOST) run --plugin ./\(library)

            clean:
            \trm -f \(library)

            .PHONY: inspect validate run clean

            """
    }

    static func source(_ name: PluginProjectName) -> String {
        """
        /*
         * \(name.title): a cellhost plugin in C, written by `cellhost new`.
         *
         * One configuration type, \(name.typeIdentifier): a title, a tint and a count, drawn as a
         * row with the count in a badge of the tint. The action increment(by:) adds to the count.
         * The tint follows the state (blue, green when selected, grey when disabled, dimmed while
         * highlighted) until the tint is set, which locks it.
         */
        #include <cellhost/plugin.h>

        #include <inttypes.h>
        #include <stdio.h>
        #include <stdlib.h>
        #include <string.h>

        static const cellhost_host *host;

        /* Bits of `customized`, one per property, in property order. */
        enum { P_TITLE, P_TINT, P_COUNT, PROPERTY_COUNT };

        /* plugin.h declares the handle types; the plugin defines them. */
        struct cellhost_config {
            char *title; /* malloc'd, never NULL */
            cellhost_color tint;
            int64_t count;
            uint32_t customized; /* 1 << P_* */
        };

        static const cellhost_color fallback_tint = { 0.0, 0.48, 1.0, 1.0 };

        static char *copy_string(const char *s) {
            size_t n = strlen(s);
            char *d = malloc(n + 1);
            if (d) memcpy(d, s, n + 1);
            return d;
        }

        /* The tint for a state. It depends on the state alone, as CELLHOST_CONFIG_PURE_RESTYLE
         * promises: an unknown colour name gives a constant, never an earlier restyle's tint. */
        static cellhost_color tint_for(const cellhost_state *state) {
            const char *name = "systemBlue";
            if (state && (state->flags & CELLHOST_STATE_SELECTED)) name = "systemGreen";
            if (state && (state->flags & CELLHOST_STATE_DISABLED)) name = "systemGray";
            cellhost_color tint = fallback_tint;
            host->system_color(state ? &state->traits : NULL, name, &tint);
            if (state && (state->flags & CELLHOST_STATE_HIGHLIGHTED)) tint.alpha *= 0.6;
            return tint;
        }

        /* ---- the configuration: a value the host copies before every change ---- */

        static cellhost_config *make_default(const cellhost_config_type *type) {
            (void)type;
            cellhost_config *c = calloc(1, sizeof *c);
            if (!c) return NULL;
            c->title = copy_string("\(name.title)");
            c->tint = tint_for(NULL);
            return c;
        }

        static cellhost_config *copy_config(const cellhost_config *c) {
            cellhost_config *d = malloc(sizeof *d);
            if (!d) return NULL;
            *d = *c;
            d->title = copy_string(c->title);
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
            return strcmp(a->title, b->title) == 0 && same_color(a->tint, b->tint) && a->count == b->count
                && a->customized == b->customized;
        }

        /* A new configuration restyled for `state`; a customised (set) tint keeps its value. */
        static cellhost_config *updated_for_state(const cellhost_config *c, const cellhost_state *state) {
            cellhost_config *d = copy_config(c);
            if (d && !(c->customized & (1u << P_TINT))) d->tint = tint_for(state);
            return d;
        }

        /* ---- properties: a getter and a setter each; a setter locks its property ---- */

        static const char *get_title(const cellhost_config *c, const cellhost_property *p) { (void)p; return c->title; }
        static void set_title(cellhost_config *c, const cellhost_property *p, const char *value) {
            (void)p;
            char *title = copy_string(value ? value : "");
            if (!title) return;
            free(c->title);
            c->title = title;
            c->customized |= 1u << P_TITLE;
        }

        static cellhost_color get_tint(const cellhost_config *c, const cellhost_property *p) { (void)p; return c->tint; }
        static void set_tint(cellhost_config *c, const cellhost_property *p, cellhost_color value) {
            (void)p;
            c->tint = value;
            c->customized |= 1u << P_TINT;
        }

        static int64_t get_count(const cellhost_config *c, const cellhost_property *p) { (void)p; return c->count; }
        static void set_count(cellhost_config *c, const cellhost_property *p, int64_t value) {
            (void)p;
            c->count = value;
            c->customized |= 1u << P_COUNT;
        }

        #define PROPERTY(name, encoding, get, set) \\
            { CELLHOST_HEADER(cellhost_property), name, encoding, (cellhost_fn)get, (cellhost_fn)set, NULL }
        static const cellhost_property properties[PROPERTY_COUNT] = {
            PROPERTY("title", "*", get_title, set_title),
            PROPERTY("tint", "{Color=dddd}", get_tint, set_tint),
            PROPERTY("count", "q", get_count, set_count),
        };

        static bool is_customized(const cellhost_config *c, const char *name) {
            for (int i = 0; i < PROPERTY_COUNT; i++)
                if (strcmp(properties[i].name, name) == 0) return (c->customized >> i) & 1u;
            return false;
        }

        /* ---- actions: false refuses the arguments (say why in the log) ---- */

        static bool increment(cellhost_config *c, const cellhost_action *a, int64_t by) {
            (void)a;
            if (by <= 0 || c->count > INT64_MAX - by) {
                host->log(CELLHOST_LOG_WARNING, "increment(by:) needs a positive step that keeps the count in range");
                return false;
            }
            set_count(c, &properties[P_COUNT], c->count + by);
            return true;
        }

        static const cellhost_action actions[] = {
            { CELLHOST_HEADER(cellhost_action), "increment", "q", "by", (cellhost_fn)increment, NULL },
        };

        /* ---- the view: keeps its own copy of what it draws ---- */

        struct cellhost_view { cellhost_config *config; };

        static cellhost_view *make_view(const cellhost_config *initial) {
            cellhost_view *v = malloc(sizeof *v);
            if (!v) return NULL;
            v->config = copy_config(initial);
            return v;
        }

        static bool view_supports(const cellhost_view *v, const cellhost_config *candidate) {
            (void)v; (void)candidate;
            return true;
        }

        static void view_set(cellhost_view *v, const cellhost_config *c) {
            cellhost_config *copy = copy_config(c);
            if (!copy) return;
            destroy_config(v->config);
            v->config = copy;
        }

        static cellhost_text_request text_request(const char *text, cellhost_font font) {
            cellhost_text_request r = { CELLHOST_HEADER(cellhost_text_request), text, strlen(text), font, 1, 4 };
            return r;
        }

        /* The badge: the count on a capsule of the tint. `request` points into `text`, so a
         * badge is filled in place, never returned by value. */
        typedef struct { char text[24]; cellhost_text_request request; cellhost_size size; } badge;

        static void fill_badge(badge *b, const cellhost_config *c, const cellhost_context *ctx) {
            if (c->count > 99) snprintf(b->text, sizeof b->text, "99+");
            else snprintf(b->text, sizeof b->text, "%" PRId64, c->count);
            b->request = text_request(b->text, host->default_font(&ctx->traits, CELLHOST_TEXT_STYLE_FOOTNOTE));
            cellhost_text_metrics m = host->measure_text(ctx, &b->request, -1);
            double height = m.size.height + 4;
            b->size = (cellhost_size){ m.size.width + 12 > height ? m.size.width + 12 : height, height };
        }

        static double title_height(const cellhost_config *c, const cellhost_context *ctx, double width) {
            cellhost_text_request r = text_request(c->title, host->default_font(&ctx->traits, CELLHOST_TEXT_STYLE_BODY));
            return host->measure_text(ctx, &r, width > 0 ? width : 0).size.height;
        }

        static cellhost_size view_size(cellhost_view *v, cellhost_size target, const cellhost_context *ctx) {
            cellhost_insets m = host->default_layout_margins(&ctx->traits);
            badge b;
            fill_badge(&b, v->config, ctx);
            double title = title_height(v->config, ctx, target.width - m.leading - m.trailing - b.size.width - 8);
            double content = title > b.size.height ? title : b.size.height;
            return (cellhost_size){ target.width, m.top + content + m.bottom };
        }

        static void view_draw(cellhost_view *v, cellhost_rect bounds, const cellhost_context *ctx, cellhost_canvas *canvas) {
            const cellhost_config *c = v->config;
            cellhost_insets m = host->default_layout_margins(&ctx->traits);
            badge b;
            fill_badge(&b, c, ctx);
            double title_width = bounds.width - m.leading - m.trailing - b.size.width - 8;
            double height = title_height(c, ctx, title_width);
            cellhost_text_run title = { CELLHOST_HEADER(cellhost_text_run),
                text_request(c->title, host->default_font(&ctx->traits, CELLHOST_TEXT_STYLE_BODY)), { 0, 0, 0, 1 },
                { bounds.x + m.leading, bounds.y + (bounds.height - height) / 2, title_width, height }, 0 };
            host->system_color(&ctx->traits, "label", &title.color);
            host->text(canvas, &title);

            cellhost_rect frame = { bounds.x + bounds.width - m.trailing - b.size.width,
                                    bounds.y + (bounds.height - b.size.height) / 2, b.size.width, b.size.height };
            host->rounded_rect(canvas, frame, b.size.height / 2, c->tint);
            cellhost_text_run count = { CELLHOST_HEADER(cellhost_text_run), b.request, { 1, 1, 1, 1 },
                                        { frame.x, frame.y + 2, frame.width, frame.height - 4 }, 2 };
            host->text(canvas, &count);
        }

        static void destroy_view(cellhost_view *v) {
            destroy_config(v->config);
            free(v);
        }

        static const cellhost_view_type view_type = {
            CELLHOST_HEADER(cellhost_view_type),
            make_view, view_supports, view_set, view_size, view_draw, destroy_view,
        };

        /* ---- the descriptor ---- */

        static const cellhost_config_type config_type = {
            CELLHOST_HEADER(cellhost_config_type),
            "\(name.typeIdentifier)",
            "\(name.title)",
            properties, PROPERTY_COUNT,
            actions, sizeof actions / sizeof actions[0],
            make_default, copy_config, destroy_config, equal_configs, updated_for_state, is_customized,
            &view_type,
            NULL, /* update_configuration: no cell-level hook */
            NULL, /* user_data */
            CELLHOST_CONFIG_PURE_RESTYLE,
        };

        static bool init(const cellhost_host *h) {
            host = h;
            return true;
        }

        static const cellhost_config_type *const types[] = { &config_type };

        static const cellhost_plugin_descriptor descriptor = {
            CELLHOST_HEADER(cellhost_plugin_descriptor),
            CELLHOST_DESCRIPTOR_MAGIC,
            "\(name.pluginIdentifier)",
            "\(name.title)",
            "0.1.0",
            "Example",
            "A row with a title and a count badge, written in C.",
            types, 1,
            init,
            NULL,
        };

        /* The same strings again, in an ELF section: `cellhost inspect --no-load` reads them
         * without running this library. `cellhost validate` checks that they agree. */
        CELLHOST_METADATA("\(name.pluginIdentifier)", "\(name.title)", "0.1.0", "Example",
                          "A row with a title and a count badge, written in C.",
                          CELLHOST_METADATA_TYPES("\(name.typeIdentifier)"));

        CELLHOST_EXPORT const cellhost_plugin_descriptor *cellhost_plugin_entry(void) {
            return &descriptor;
        }

        """
    }
}

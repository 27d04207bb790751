/// C sources of small plugins for the loader tests: one well-formed plugin whose every part can
/// be broken on purpose, to check that each refusal names the problem.
struct TestPluginSource {
    var pluginID = "com.test.minimal"
    var typeID = "com.test.minimal.cell"
    var encoding = "q"
    var major = "CELLHOST_ABI_MAJOR"
    var minor = "CELLHOST_ABI_MINOR"
    var magic = "CELLHOST_DESCRIPTOR_MAGIC"
    var copyFunction = "copy_config"
    /// The configuration type's header and flags (ABI 1.1); a 1.0 plugin's type is shorter.
    var configHeader = "CELLHOST_HEADER(cellhost_config_type)"
    var configFlags = "0"
    var entryName = "cellhost_plugin_entry"
    /// Replaces the entry's body.
    var entryBody = "return &descriptor;"
    /// The ABI header the plugin is built against (a test may build against an older layout).
    var header = "cellhost/plugin.h"
    /// What `updated_for_state` sets an uncustomised value to, from the state `s`.
    var restyledValue = "(s->flags & CELLHOST_STATE_SELECTED) ? 1 : 0"
    /// The height `size_that_fits` answers, from the view `v` and the context `x`.
    var fittingHeight = "10.0 + (double)v->shown"
    /// Code placed before everything else (e.g. a constructor or an undefined function).
    var prelude = ""

    var text: String {
        """
        #include "\(header)"
        #include <stdlib.h>
        \(prelude)
        struct cellhost_config { int64_t value; uint32_t customized; };
        struct cellhost_view { int64_t shown; };
        static cellhost_config *make_default(const cellhost_config_type *t) { (void)t; return calloc(1, sizeof(cellhost_config)); }
        static cellhost_config *copy_config(const cellhost_config *c) {
            cellhost_config *d = malloc(sizeof *d); *d = *c; return d;
        }
        static void destroy_config(cellhost_config *c) { free(c); }
        static bool equal(const cellhost_config *a, const cellhost_config *b) { return a->value == b->value; }
        /* Calls of updated_for_state, for tests that count them. */
        CELLHOST_EXPORT int64_t minimal_updated_calls = 0;
        static cellhost_config *updated(const cellhost_config *c, const cellhost_state *s) {
            minimal_updated_calls++;
            cellhost_config *d = copy_config(c);
            if (!(c->customized & 1)) d->value = \(restyledValue);
            return d;
        }
        static bool is_customized(const cellhost_config *c, const char *name) { (void)name; return c->customized & 1; }
        static int64_t get_value(const cellhost_config *c, const cellhost_property *p) { (void)p; return c->value; }
        static void set_value(cellhost_config *c, const cellhost_property *p, int64_t v) {
            (void)p; c->value = v; c->customized |= 1;
        }
        static cellhost_view *make_view(const cellhost_config *c) {
            cellhost_view *v = malloc(sizeof *v); v->shown = c->value; return v;
        }
        static bool supports(const cellhost_view *v, const cellhost_config *c) { (void)v; (void)c; return true; }
        static void set_configuration(cellhost_view *v, const cellhost_config *c) { v->shown = c->value; }
        static cellhost_size size_that_fits(cellhost_view *v, cellhost_size t, const cellhost_context *x) {
            (void)x; return (cellhost_size){ t.width, \(fittingHeight) };
        }
        static void draw(cellhost_view *v, cellhost_rect b, const cellhost_context *x, cellhost_canvas *c) {
            (void)v; (void)b; (void)x; (void)c;
        }
        static void destroy_view(cellhost_view *v) { free(v); }
        static const cellhost_property properties[] = {
            { CELLHOST_HEADER(cellhost_property), "value", "\(encoding)", (cellhost_fn)get_value, (cellhost_fn)set_value, NULL },
        };
        static const cellhost_view_type view_type = {
            CELLHOST_HEADER(cellhost_view_type), make_view, supports, set_configuration, size_that_fits, draw, destroy_view,
        };
        static const cellhost_config_type config_type = {
            \(configHeader), "\(typeID)", "Minimal", properties, 1, NULL, 0,
            make_default, \(copyFunction), destroy_config, equal, updated, is_customized, &view_type, NULL, NULL,
            \(configFlags),
        };
        static const cellhost_config_type *const types[] = { &config_type };
        static const cellhost_plugin_descriptor descriptor = {
            { sizeof(cellhost_plugin_descriptor), \(major), \(minor) }, \(magic),
            "\(pluginID)", "Minimal", "0.1", "tests", NULL, types, 1, NULL, NULL,
        };
        CELLHOST_EXPORT const cellhost_plugin_descriptor *\(entryName)(void) { \(entryBody) }
        """
    }
}

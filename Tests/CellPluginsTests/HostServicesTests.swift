import CellKit
import CellPlugins
import Synchronization
import CellTestSupport
import Testing

/// The services table as a plugin sees it: transformers (built-in and composed closures),
/// system defaults for traits, text measurement, the canvas (kept balanced), tagged logging.
@Suite struct HostServicesTests {
    static let source = """
        #include "cellhost/plugin.h"
        #include <stdlib.h>
        static const cellhost_host *host;
        struct cellhost_config { cellhost_color_transformer t; double font_size; cellhost_insets margins; };
        struct cellhost_view { int unused; };
        static cellhost_config *make_default(const cellhost_config_type *t) { (void)t; return calloc(1, sizeof(cellhost_config)); }
        static cellhost_config *copy_config(const cellhost_config *c) { cellhost_config *d = malloc(sizeof *d); *d = *c; return d; }
        static void destroy_config(cellhost_config *c) { free(c); }
        static bool equal(const cellhost_config *a, const cellhost_config *b) { return a->t == b->t && a->font_size == b->font_size; }
        static cellhost_config *updated(const cellhost_config *c, const cellhost_state *s) {
            cellhost_config *d = copy_config(c);
            d->font_size = host->default_font(&s->traits, CELLHOST_TEXT_STYLE_BODY).point_size;
            d->margins = host->default_layout_margins(&s->traits);
            return d;
        }
        static bool is_customized(const cellhost_config *c, const char *n) { (void)c; (void)n; return false; }
        static cellhost_color_transformer get_t(const cellhost_config *c, const cellhost_property *p) { (void)p; return c->t; }
        static void set_t(cellhost_config *c, const cellhost_property *p, cellhost_color_transformer t) { (void)p; c->t = t; }
        static double get_font(const cellhost_config *c, const cellhost_property *p) { (void)p; return c->font_size; }
        static cellhost_insets get_margins(const cellhost_config *c, const cellhost_property *p) { (void)p; return c->margins; }
        static bool get_probes(const cellhost_config *c, const cellhost_property *p) {
            (void)c; (void)p;
            cellhost_color out = {0, 0, 0, 0};
            return !host->system_color(NULL, "noSuchColour", &out) && out.alpha == 0
                && host->color_transformer("noSuchTransformer") == NULL
                && host->system_color(NULL, "label", &out) && out.alpha == 1;
        }
        static bool compose(cellhost_config *c, const cellhost_action *a) {
            (void)a;
            c->t = host->compose_color_transformers(host->color_transformer("grayscale"), host->color_transformer("preferredTint"));
            return c->t != NULL;
        }
        static bool say(cellhost_config *c, const cellhost_action *a, const char *text) {
            (void)c; (void)a; host->log(CELLHOST_LOG_WARNING, text); return true;
        }
        static cellhost_view *make_view(const cellhost_config *c) { (void)c; return calloc(1, sizeof(cellhost_view)); }
        static bool supports(const cellhost_view *v, const cellhost_config *c) { (void)v; (void)c; return true; }
        static void set_configuration(cellhost_view *v, const cellhost_config *c) { (void)v; (void)c; }
        static cellhost_size size_that_fits(cellhost_view *v, cellhost_size t, const cellhost_context *x) { (void)v; (void)x; return t; }
        static void draw(cellhost_view *v, cellhost_rect b, const cellhost_context *x, cellhost_canvas *canvas) {
            (void)v;
            cellhost_text_request r = { CELLHOST_HEADER(cellhost_text_request), "abcd", 4,
                                        host->default_font(&x->traits, CELLHOST_TEXT_STYLE_BODY), 1, 4 };
            cellhost_text_metrics m = host->measure_text(x, &r, -1);
            host->push_clip(canvas, b, 4);
            host->push_alpha(canvas, 0.5);
            host->fill(canvas, (cellhost_rect){ 0, 0, m.size.width, m.size.height }, (cellhost_color){ 1, 0, 0, 1 });
            host->pop_clip(canvas); /* wrong order: the alpha group is innermost */
            /* and both groups are left open */
        }
        static void destroy_view(cellhost_view *v) { free(v); }
        static const cellhost_property properties[] = {
            { CELLHOST_HEADER(cellhost_property), "transformer", "@T", (cellhost_fn)get_t, (cellhost_fn)set_t, NULL },
            { CELLHOST_HEADER(cellhost_property), "fontSize", "d", (cellhost_fn)get_font, NULL, NULL },
            { CELLHOST_HEADER(cellhost_property), "margins", "{Insets=dddd}", (cellhost_fn)get_margins, NULL, NULL },
            { CELLHOST_HEADER(cellhost_property), "probes", "B", (cellhost_fn)get_probes, NULL, NULL },
        };
        static const cellhost_action actions[] = {
            { CELLHOST_HEADER(cellhost_action), "compose", "", NULL, (cellhost_fn)compose, NULL },
            { CELLHOST_HEADER(cellhost_action), "say", "*", "text", (cellhost_fn)say, NULL },
        };
        static const cellhost_view_type view_type = {
            CELLHOST_HEADER(cellhost_view_type), make_view, supports, set_configuration, size_that_fits, draw, destroy_view,
        };
        static const cellhost_config_type config_type = {
            CELLHOST_HEADER(cellhost_config_type), "com.test.services.cell", NULL, properties, 4, actions, 2,
            make_default, copy_config, destroy_config, equal, updated, is_customized, &view_type, NULL, NULL,
        };
        static const cellhost_config_type *const types[] = { &config_type };
        static bool init(const cellhost_host *h) { host = h; return h->header.abi_major == CELLHOST_ABI_MAJOR; }
        static const cellhost_plugin_descriptor descriptor = {
            CELLHOST_HEADER(cellhost_plugin_descriptor), CELLHOST_DESCRIPTOR_MAGIC,
            "com.test.services", "Services", "1", "tests", NULL, types, 1, init, NULL,
        };
        CELLHOST_EXPORT const cellhost_plugin_descriptor *cellhost_plugin_entry(void) { return &descriptor; }
        """

    static let type: PluginConfigurationType? = {
        guard let path = try? PluginCompiler.compile(source: source, name: "services") else { return nil }
        return try? PluginRegistry().load(path).types.first
    }()

    func fresh() throws -> PluginConfiguration {
        let type = try #require(Self.type, "the services plugin did not compile or load")
        return try #require(type.makeDefault())
    }

    @Test func transformersAreHostClosuresAndComposedOnesComeBackByName() throws {
        let composed = try fresh().performing("compose", arguments: [])
        #expect(try composed.value(of: "transformer") == .transformer(ColorTransformer.grayscale.then(.preferredTint)))
        #expect(try fresh().value(of: "probes") == .bool(true), "unknown names give NULL/false, known ones resolve")
        // A transformer set by the host comes back as the same transformer.
        let set = try fresh().setting("transformer", to: .transformer(.monochromeTint))
        #expect(try set.value(of: "transformer") == .transformer(.monochromeTint))
    }

    @Test func systemDefaultsFollowTheTraits() throws {
        let large = try fresh().updated(for: CellConfigurationState())
        let huge = try fresh().updated(for: CellConfigurationState(
            traitCollection: TraitCollection(preferredContentSizeCategory: .accessibilityExtraExtraExtraLarge)))
        #expect(try large.value(of: "fontSize") == .double(17))
        #expect(try huge.value(of: "fontSize") == .double(Font.preferredFont(forTextStyle: .body,
                                                                              category: .accessibilityExtraExtraExtraLarge).pointSize))
        #expect(try large.value(of: "margins") == .insets(DirectionalEdgeInsets(top: 11, leading: 16, bottom: 11, trailing: 16)))
    }

    @Test func canvasMeasuresTextAndKeepsGroupsBalanced() throws {
        let context = LayoutContext(traits: .default, textMeasurer: FixedAdvanceTextMeasurer())
        var list = DisplayList()
        try fresh().makeContentView().draw(in: Rect(x: 0, y: 0, width: 100, height: 40), context: context, into: &list)
        // "abcd" at 17 pt with 0.5 advance = 34 wide, one 21 pt line; the stray pop_clip is dropped
        // and the groups the plugin left open are closed innermost first.
        #expect(list.commands == [
            .pushClip(Rect(x: 0, y: 0, width: 100, height: 40), cornerRadius: 4),
            .pushAlpha(0.5),
            .fill(Rect(x: 0, y: 0, width: 34, height: 21), Color(red: 1, green: 0, blue: 0)),
            .popAlpha,
            .popClip,
        ])
    }

    @Test func logMessagesAreTaggedWithThePlugin() throws {
        let received = Mutex<[PluginLogMessage]>([])
        PluginHostEnvironment.setLogHandler { message in received.withLock { $0.append(message) } }
        _ = try fresh().performing("say", arguments: [.string("hello from the services plugin")])
        let mine = received.withLock { $0.filter { $0.pluginID == "com.test.services" } }
        #expect(mine == [PluginLogMessage(pluginID: "com.test.services", level: .warning, text: "hello from the services plugin")])
    }
}

import CellKit
import CellPlugins
import CellTestSupport
import Testing

/// The host services a plugin calls with the traits of the state or context it was handed
/// answer for that call's ABI 1.2 extra traits too: Bold Text makes `default_font` one weight
/// heavier, the elevated level changes `system_color`; increased contrast (in `cellhost_traits`
/// itself) changes `system_color` and size classes `default_layout_margins`. The same plugin
/// built against ABI 1.1 gets the answers it was built for: base level, regular weight.
@Suite struct ExtraTraitHostServicesTests {
    /// A plugin that asks the services during `updated_for_state` (with the state's traits and
    /// with a copy of them) and draws with their answers for the context's traits.
    static func source(abiMinor: Int) -> String {
        """
        #include "cellhost/plugin.h"
        #undef CELLHOST_ABI_MINOR
        #define CELLHOST_ABI_MINOR \(abiMinor)
        #include <stdlib.h>
        static const cellhost_host *host;
        struct cellhost_config {
            int64_t body_weight, copied_body_weight;
            cellhost_color background, blue;
            cellhost_insets margins;
        };
        struct cellhost_view { int unused; };
        static cellhost_config *make_default(const cellhost_config_type *t) { (void)t; return calloc(1, sizeof(cellhost_config)); }
        static cellhost_config *copy_config(const cellhost_config *c) { cellhost_config *d = malloc(sizeof *d); *d = *c; return d; }
        static void destroy_config(cellhost_config *c) { free(c); }
        static bool equal(const cellhost_config *a, const cellhost_config *b) { (void)a; (void)b; return false; }
        static cellhost_config *updated(const cellhost_config *c, const cellhost_state *s) {
            cellhost_config *d = copy_config(c);
            d->body_weight = host->default_font(&s->traits, CELLHOST_TEXT_STYLE_BODY).weight;
            cellhost_traits copied = s->traits;
            d->copied_body_weight = host->default_font(&copied, CELLHOST_TEXT_STYLE_BODY).weight;
            host->system_color(&s->traits, "systemBackground", &d->background);
            host->system_color(&s->traits, "systemBlue", &d->blue);
            d->margins = host->default_layout_margins(&s->traits);
            return d;
        }
        static bool is_customized(const cellhost_config *c, const char *n) { (void)c; (void)n; return false; }
        static int64_t get_weight(const cellhost_config *c, const cellhost_property *p) { (void)p; return c->body_weight; }
        static int64_t get_copied(const cellhost_config *c, const cellhost_property *p) { (void)p; return c->copied_body_weight; }
        static cellhost_color get_background(const cellhost_config *c, const cellhost_property *p) { (void)p; return c->background; }
        static cellhost_color get_blue(const cellhost_config *c, const cellhost_property *p) { (void)p; return c->blue; }
        static cellhost_insets get_margins(const cellhost_config *c, const cellhost_property *p) { (void)p; return c->margins; }
        static cellhost_view *make_view(const cellhost_config *c) { (void)c; return calloc(1, sizeof(cellhost_view)); }
        static bool supports(const cellhost_view *v, const cellhost_config *c) { (void)v; (void)c; return true; }
        static void set_configuration(cellhost_view *v, const cellhost_config *c) { (void)v; (void)c; }
        static cellhost_size size_that_fits(cellhost_view *v, cellhost_size t, const cellhost_context *x) { (void)v; (void)x; return t; }
        static void draw(cellhost_view *v, cellhost_rect b, const cellhost_context *x, cellhost_canvas *canvas) {
            (void)v;
            cellhost_color background = { 0, 0, 0, 0 };
            host->system_color(&x->traits, "systemBackground", &background);
            host->fill(canvas, b, background);
            cellhost_text_run run = { CELLHOST_HEADER(cellhost_text_run),
                { CELLHOST_HEADER(cellhost_text_request), "Aa", 2, host->default_font(&x->traits, CELLHOST_TEXT_STYLE_BODY), 1, 4 },
                { 0, 0, 0, 1 }, b, 0 };
            host->text(canvas, &run);
        }
        static void destroy_view(cellhost_view *v) { free(v); }
        static const cellhost_property properties[] = {
            { CELLHOST_HEADER(cellhost_property), "bodyWeight", "q", (cellhost_fn)get_weight, NULL, NULL },
            { CELLHOST_HEADER(cellhost_property), "copiedBodyWeight", "q", (cellhost_fn)get_copied, NULL, NULL },
            { CELLHOST_HEADER(cellhost_property), "background", "{Color=dddd}", (cellhost_fn)get_background, NULL, NULL },
            { CELLHOST_HEADER(cellhost_property), "blue", "{Color=dddd}", (cellhost_fn)get_blue, NULL, NULL },
            { CELLHOST_HEADER(cellhost_property), "margins", "{Insets=dddd}", (cellhost_fn)get_margins, NULL, NULL },
        };
        static const cellhost_view_type view_type = {
            CELLHOST_HEADER(cellhost_view_type), make_view, supports, set_configuration, size_that_fits, draw, destroy_view,
        };
        static const cellhost_config_type config_type = {
            CELLHOST_HEADER(cellhost_config_type), "com.test.extratraits\(abiMinor).cell", NULL, properties, 5, NULL, 0,
            make_default, copy_config, destroy_config, equal, updated, is_customized, &view_type, NULL, NULL,
        };
        static const cellhost_config_type *const types[] = { &config_type };
        static bool init(const cellhost_host *h) { host = h; return true; }
        static const cellhost_plugin_descriptor descriptor = {
            CELLHOST_HEADER(cellhost_plugin_descriptor), CELLHOST_DESCRIPTOR_MAGIC,
            "com.test.extratraits\(abiMinor)", "Extra traits", "1", "tests", NULL, types, 1, init, NULL,
        };
        CELLHOST_EXPORT const cellhost_plugin_descriptor *cellhost_plugin_entry(void) { return &descriptor; }
        """
    }

    static func load(abiMinor: Int) -> PluginConfigurationType? {
        guard let path = try? PluginCompiler.compile(source: source(abiMinor: abiMinor), name: "extratraits\(abiMinor)") else {
            return nil
        }
        return try? PluginRegistry().load(path).types.first
    }

    static let current = load(abiMinor: 2)
    static let older = load(abiMinor: 1)

    static func updated(_ type: PluginConfigurationType?, _ traits: TraitCollection) throws -> PluginConfiguration {
        let type = try #require(type, "the extra-traits plugin did not compile or load")
        return try #require(type.makeDefault()).updated(for: CellConfigurationState(traitCollection: traits))
    }

    static func weight(_ weight: FontWeight) -> PropertyValue {
        .int(Int64(FontWeight.allCases.firstIndex(of: weight)!))
    }

    /// `color` under `traits` as it crosses the ABI: four components, no name.
    static func plain(_ color: Color, _ traits: TraitCollection) -> Color {
        let c = color.resolved(with: traits).light
        return Color(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha)
    }

    static func color(_ color: Color, _ traits: TraitCollection) -> PropertyValue { .color(plain(color, traits)) }

    static let bold = TraitCollection(legibilityWeight: .bold)
    static let elevatedDark = TraitCollection(userInterfaceStyle: .dark, userInterfaceLevel: .elevated)
    static let highContrastDark = TraitCollection(userInterfaceStyle: .dark, accessibilityContrast: .high)

    @Test func boldTextMakesDefaultFontsOneWeightHeavier() throws {
        let regular = try Self.updated(Self.current, .default)
        let bold = try Self.updated(Self.current, Self.bold)
        #expect(try regular.value(of: "bodyWeight") == Self.weight(.regular))
        #expect(try bold.value(of: "bodyWeight") == Self.weight(.semibold))
        #expect(try bold.value(of: "copiedBodyWeight") == Self.weight(.semibold), "a copy of the state's traits is answered alike")
    }

    @Test func theElevatedLevelAndIncreasedContrastChangeSystemColours() throws {
        let elevated = try Self.updated(Self.current, Self.elevatedDark)
        #expect(try elevated.value(of: "background") == Self.color(.systemBackground, Self.elevatedDark))
        #expect(try elevated.value(of: "background") != Self.color(.systemBackground, TraitCollection(userInterfaceStyle: .dark)))
        let high = try Self.updated(Self.current, Self.highContrastDark)
        #expect(try high.value(of: "blue") == Self.color(.systemBlue, Self.highContrastDark))
        #expect(try high.value(of: "blue") != Self.color(.systemBlue, TraitCollection(userInterfaceStyle: .dark)))
    }

    @Test func sizeClassesChangeTheDefaultMargins() throws {
        let compact = try Self.updated(Self.current, .default).value(of: "margins")
        let regular = try Self.updated(Self.current, TraitCollection(horizontalSizeClass: .regular)).value(of: "margins")
        #expect(compact == .insets(DirectionalEdgeInsets(top: 11, leading: 16, bottom: 11, trailing: 16)))
        #expect(regular == .insets(DirectionalEdgeInsets(top: 11, leading: 20, bottom: 11, trailing: 20)))
    }

    @Test func drawingAsksForTheContextsExtraTraits() throws {
        let type = try #require(Self.current)
        let traits = TraitCollection(userInterfaceStyle: .dark, userInterfaceLevel: .elevated, legibilityWeight: .bold)
        let context = LayoutContext(traits: traits, textMeasurer: FixedAdvanceTextMeasurer())
        var list = DisplayList()
        try #require(type.makeDefault()).makeContentView().draw(in: Rect(x: 0, y: 0, width: 100, height: 40), context: context, into: &list)
        #expect(list.commands.first == .fill(Rect(x: 0, y: 0, width: 100, height: 40),
                                             Self.plain(.systemBackground, traits)))
        guard case .text(let run)? = list.commands.dropFirst().first else {
            Issue.record("the plugin drew no text: \(list.commands)")
            return
        }
        #expect(run.font.weight == .semibold)
    }

    @Test func aPluginBuiltAgainstTheOlderABIGetsTheAnswersItWasBuiltFor() throws {
        let bold = try Self.updated(Self.older, Self.bold)
        #expect(try bold.value(of: "bodyWeight") == Self.weight(.regular))
        let elevated = try Self.updated(Self.older, Self.elevatedDark)
        #expect(try elevated.value(of: "background") == Self.color(.systemBackground, TraitCollection(userInterfaceStyle: .dark)))
        // What cellhost_traits carries still counts.
        let high = try Self.updated(Self.older, Self.highContrastDark)
        #expect(try high.value(of: "blue") == Self.color(.systemBlue, Self.highContrastDark))
    }
}

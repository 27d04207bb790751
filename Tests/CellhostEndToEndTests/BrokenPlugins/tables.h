/* The descriptor tables of the plugins built from base.h; included last. */
#ifndef PLUGIN_ABI_MINOR
#define PLUGIN_ABI_MINOR CELLHOST_ABI_MINOR
#endif
#ifndef PLUGIN_CONFIG_FLAGS
#define PLUGIN_CONFIG_FLAGS CELLHOST_CONFIG_PURE_RESTYLE
#endif
#ifndef PLUGIN_TYPE_ID
#define PLUGIN_TYPE_ID "com.validation.test.cell"
#endif
#ifndef PLUGIN_NAME
#define PLUGIN_NAME "Validation test plugin"
#endif
#ifndef PLUGIN_ENTRY_NAME
#define PLUGIN_ENTRY_NAME cellhost_plugin_entry
#endif

#define PROPERTY(n, enc, g, s) { CELLHOST_HEADER(cellhost_property), n, enc, (cellhost_fn)g, (cellhost_fn)s, NULL }
static const cellhost_property properties[] = {
    PROPERTY("value", "d", get_value, set_value),
    PROPERTY("count", "q", get_count, set_count),
    PROPERTY("title", "*", get_title, set_title),
    PROPERTY("tint", "{Color=dddd}", get_tint, set_tint),
    PROPERTY("enabled", "B", get_enabled, set_enabled),
};

static const cellhost_action actions[] = {
    { CELLHOST_HEADER(cellhost_action), "bump", "q", "by", (cellhost_fn)bump, NULL },
};

static const cellhost_view_type view_type = {
    CELLHOST_HEADER(cellhost_view_type), make_view, view_supports, view_set, view_size, view_draw, destroy_view,
};

static const cellhost_config_type config_type = {
    CELLHOST_HEADER(cellhost_config_type), PLUGIN_TYPE_ID, "Validation test cell",
    properties, sizeof properties / sizeof properties[0], actions, 1,
    make_default, copy_config, destroy_config, equal_configs, updated_for_state, is_customized, &view_type, NULL,
    NULL, PLUGIN_CONFIG_FLAGS,
};

static const cellhost_config_type *const types[] = { &config_type };

static const cellhost_plugin_descriptor descriptor = {
    { (uint32_t)sizeof(cellhost_plugin_descriptor), CELLHOST_ABI_MAJOR, PLUGIN_ABI_MINOR },
    CELLHOST_DESCRIPTOR_MAGIC, "com.validation.test", PLUGIN_NAME, "1.0.0", "cellhost tests",
    NULL, types, 1, init, get_extension,
};

/* The metadata section (plugin.h), with the descriptor's strings unless a fixture overrides one
 * to disagree (mismatched_metadata.c) or leaves the section out (OMIT_METADATA). */
#ifndef PLUGIN_METADATA_NAME
#define PLUGIN_METADATA_NAME "Validation test plugin"
#endif
#ifndef PLUGIN_METADATA_VERSION
#define PLUGIN_METADATA_VERSION "1.0.0"
#endif
#ifndef OMIT_METADATA
CELLHOST_METADATA("com.validation.test", PLUGIN_METADATA_NAME, PLUGIN_METADATA_VERSION, "cellhost tests", "",
                  CELLHOST_METADATA_TYPES(PLUGIN_TYPE_ID));
#endif

#ifndef REPLACE_ENTRY
CELLHOST_EXPORT const cellhost_plugin_descriptor *PLUGIN_ENTRY_NAME(void) {
    return &descriptor;
}
#endif

/*
 * cellhost plugin ABI — the one contract between the cellhost host and a plugin (.so).
 *
 * A plugin adds content configuration types (UIKit's UIContentConfiguration) and their content
 * views to cellhost. Everything that crosses this boundary is C: opaque handles, UTF-8 strings,
 * plain structs and plain function pointers. No C++ or Swift type crosses it, so a plugin
 * written in C, Swift (through SDK/Swift), Rust or Zig works the same.
 *
 * LANGUAGE
 *   C99 or later (the header uses bool and the fixed-width integers of <stdint.h>), or C++.
 *   Compiled as older C it stops with an #error that says so. `cellhost sdk --cflags` prints the
 *   -I flag for this folder; `pkg-config --cflags cellhost-plugin` prints the same.
 *
 * ENTRY
 *   The plugin exports exactly one symbol, marked CELLHOST_EXPORT:
 *       CELLHOST_EXPORT const cellhost_plugin_descriptor *cellhost_plugin_entry(void);
 *   It returns a pointer to a descriptor that stays valid and unchanged until the process ends
 *   (the host never dlcloses a plugin). It must not call back into the host.
 *
 * VERSIONING AND COMPATIBILITY RULE
 *   Every struct the plugin hands to the host and every struct the host hands to the plugin
 *   starts with a cellhost_header: its own size in bytes and the ABI version it was built
 *   against. The host accepts a plugin whose major version equals the host's and whose minor
 *   version is less than or equal to the host's; anything else is refused with a sentence that
 *   names both versions. Minor versions only append fields at the end of structs, so a reader
 *   reads the fields its own version knows and only if struct_size says they are present.
 *   Arrays of structs (properties, actions) are walked with a stride of the first element's
 *   struct_size.
 *   1.1 appended cellhost_config_type.flags; a 1.0 plugin (shorter struct) loads as flags 0.
 *   1.2 appended cellhost_state.extra_traits and cellhost_context.extra_traits (the elevated
 *   level, Bold Text and the idiom). cellhost_traits itself cannot grow: it is embedded in
 *   cellhost_state before custom_states, so a longer one would move that field for older
 *   plugins. A 1.1 plugin is handed the same structs and never reads past what it knows; a 1.2
 *   plugin reads extra_traits when CELLHOST_HAS_FIELD says the struct it was handed carries it.
 *
 * STRINGS
 *   All strings are UTF-8. Strings in descriptors are NUL-terminated and static. Property
 *   values of type `*` cross as NUL-terminated `const char *` (see encodings below). Text drawn
 *   or measured through the host services crosses as pointer + byte length (no NUL needed).
 *
 * OWNERSHIP
 *   Whoever allocates frees: configurations and views are created and destroyed by the plugin
 *   through the functions in its descriptor; host objects (canvas, embedded list views,
 *   colour transformers) belong to the host. Every function below states who calls it.
 *
 * THREADS
 *   The host calls a plugin from one thread at a time (the engine thread of the process that
 *   loaded it); plugin functions need no locking. Host services may be called only from
 *   inside a call the host made into the plugin, on that same thread, except `log`, which may be
 *   called from any thread at any time after `init`.
 *
 * TYPE ENCODINGS (in the spirit of the Objective-C runtime)
 *   B               bool                       (C99 bool, one byte)
 *   q               int64_t
 *   d               double
 *   *               const char *               NUL-terminated UTF-8. A getter returns a string
 *                                              owned by the configuration, valid until the next
 *                                              call on that configuration; a setter receives a
 *                                              string owned by the host, valid only during the
 *                                              call (copy it).
 *   {Color=dddd}    cellhost_color by value    sRGB, straight alpha, components 0…1
 *   {Size=dd}       cellhost_size by value
 *   {Insets=dddd}   cellhost_insets by value   top, leading, bottom, trailing
 *   @T              cellhost_color_transformer (a plain C function pointer; NULL = none)
 *   A property's encoding is exactly one of these. An action's encoding is the concatenation of
 *   its arguments' encodings ("" for none, "dB" for (double, bool)).
 *
 * PROPERTY AND ACTION CALLING CONVENTION (the host calls these through libffi)
 *   getter:  T    get(const cellhost_config *config, const cellhost_property *property);
 *   setter:  void set(cellhost_config *config, const cellhost_property *property, T value);
 *   action:  bool act(cellhost_config *config, const cellhost_action *action, A1 a1, A2 a2, ...);
 *   The descriptor pointer is passed back so one function can serve several properties (it may
 *   read property->user_data). A setter marks the property customised ("locked": a later
 *   updated_for_state must keep its value). An action returns false when it refuses its
 *   arguments (and should log why). The host calls setters and actions only on a configuration
 *   it just copied and owns alone (copy-on-write), so they may mutate in place.
 */
#ifndef CELLHOST_PLUGIN_H
#define CELLHOST_PLUGIN_H

#if !defined(__cplusplus) && (!defined(__STDC_VERSION__) || __STDC_VERSION__ < 199901L)
#error "cellhost/plugin.h needs C99 or later (bool, int64_t): compile with -std=c99, -std=c11 or a newer standard"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CELLHOST_ABI_MAJOR 1
#define CELLHOST_ABI_MINOR 2
/* "CHPL": the first field after the header of a plugin descriptor, so the host can tell a
 * descriptor from garbage. */
#define CELLHOST_DESCRIPTOR_MAGIC 0x4C504843u
#define CELLHOST_ENTRY_SYMBOL "cellhost_plugin_entry"

/* Marks the entry symbol exported from the plugin library, so the rest of the plugin can be
 * compiled with -fvisibility=hidden and export nothing else (the host looks up only the entry).
 * Modelled on CLAP's CLAP_EXPORT; define it before including this header to override it. A C++
 * plugin also declares its entry extern "C". */
#if !defined(CELLHOST_EXPORT)
#  if defined(_WIN32) || defined(__CYGWIN__)
#    if defined(__GNUC__)
#      define CELLHOST_EXPORT __attribute__((dllexport))
#    else
#      define CELLHOST_EXPORT __declspec(dllexport)
#    endif
#  elif (defined(__GNUC__) && __GNUC__ >= 4) || defined(__clang__)
#    define CELLHOST_EXPORT __attribute__((visibility("default")))
#  else
#    define CELLHOST_EXPORT
#  endif
#endif

/* ---------------------------------------------------------------------------------------- */
/* Metadata readable without loading the plugin                                               */

/* CELLHOST_METADATA places what the descriptor says about the plugin (id, name, version, vendor,
 * description, the ABI it was built for, its type ids) in an ELF section of its own, so
 * `cellhost inspect PATH --no-load` can show it without running any of the plugin's code, as
 * Qt reads a plugin's `.qtmetadata` section. Write it once, at file scope, beside the entry:
 *
 *     CELLHOST_METADATA("com.example.meters", "Meters", "1.0.0", "Example", "Progress meters.",
 *                       CELLHOST_METADATA_TYPES("com.example.progress", "com.example.gauge"));
 *
 * Pass the same strings the descriptor holds (string literals or macros expanding to them);
 * `cellhost validate` fails a plugin whose section and descriptor disagree. An empty
 * description means none (the descriptor's NULL). CELLHOST_METADATA_TYPES takes 1 to 16 ids.
 * The strings are written into JSON unescaped, so they must not contain `"` or `\`.
 *
 * FORMAT (version 1). The section, CELLHOST_METADATA_SECTION, holds one NUL-terminated UTF-8
 * JSON object whose first member is "cellhost-metadata": the format version. That prefix is the
 * magic, the NUL ends the record, and any other tool reads it with
 * `objcopy --dump-section .cellhost_metadata=meta.json lib.so`:
 *     {"cellhost-metadata":1,"id":"…","name":"…","version":"…","vendor":"…",
 *      "description":"…","abi":"1.2","types":["…",…]}
 * A later format version may add members; a reader ignores members it does not know, and
 * refuses a newer version number only when it cannot read the members it needs.
 *
 * The section lies outside the descriptor and every struct, so it changes no layout and no ABI
 * version: a host that does not know it never reads it, and a plugin without it (built with an
 * older SDK) loads as before; only `inspect --no-load` reports that it is missing. The array
 * has internal linkage, so it adds no export besides the entry. */
#define CELLHOST_METADATA_SECTION ".cellhost_metadata"
#define CELLHOST_METADATA_FORMAT 1

#define CELLHOST_METADATA_STRING_(x) #x
#define CELLHOST_METADATA_NUMBER_(x) CELLHOST_METADATA_STRING_(x)
#define CELLHOST_METADATA_QUOTE_(s) "\"" s "\""
#define CELLHOST_METADATA_LIST_1_(a) CELLHOST_METADATA_QUOTE_(a)
#define CELLHOST_METADATA_LIST_2_(a, ...) CELLHOST_METADATA_QUOTE_(a) "," CELLHOST_METADATA_LIST_1_(__VA_ARGS__)
#define CELLHOST_METADATA_LIST_3_(a, ...) CELLHOST_METADATA_QUOTE_(a) "," CELLHOST_METADATA_LIST_2_(__VA_ARGS__)
#define CELLHOST_METADATA_LIST_4_(a, ...) CELLHOST_METADATA_QUOTE_(a) "," CELLHOST_METADATA_LIST_3_(__VA_ARGS__)
#define CELLHOST_METADATA_LIST_5_(a, ...) CELLHOST_METADATA_QUOTE_(a) "," CELLHOST_METADATA_LIST_4_(__VA_ARGS__)
#define CELLHOST_METADATA_LIST_6_(a, ...) CELLHOST_METADATA_QUOTE_(a) "," CELLHOST_METADATA_LIST_5_(__VA_ARGS__)
#define CELLHOST_METADATA_LIST_7_(a, ...) CELLHOST_METADATA_QUOTE_(a) "," CELLHOST_METADATA_LIST_6_(__VA_ARGS__)
#define CELLHOST_METADATA_LIST_8_(a, ...) CELLHOST_METADATA_QUOTE_(a) "," CELLHOST_METADATA_LIST_7_(__VA_ARGS__)
#define CELLHOST_METADATA_LIST_9_(a, ...) CELLHOST_METADATA_QUOTE_(a) "," CELLHOST_METADATA_LIST_8_(__VA_ARGS__)
#define CELLHOST_METADATA_LIST_10_(a, ...) CELLHOST_METADATA_QUOTE_(a) "," CELLHOST_METADATA_LIST_9_(__VA_ARGS__)
#define CELLHOST_METADATA_LIST_11_(a, ...) CELLHOST_METADATA_QUOTE_(a) "," CELLHOST_METADATA_LIST_10_(__VA_ARGS__)
#define CELLHOST_METADATA_LIST_12_(a, ...) CELLHOST_METADATA_QUOTE_(a) "," CELLHOST_METADATA_LIST_11_(__VA_ARGS__)
#define CELLHOST_METADATA_LIST_13_(a, ...) CELLHOST_METADATA_QUOTE_(a) "," CELLHOST_METADATA_LIST_12_(__VA_ARGS__)
#define CELLHOST_METADATA_LIST_14_(a, ...) CELLHOST_METADATA_QUOTE_(a) "," CELLHOST_METADATA_LIST_13_(__VA_ARGS__)
#define CELLHOST_METADATA_LIST_15_(a, ...) CELLHOST_METADATA_QUOTE_(a) "," CELLHOST_METADATA_LIST_14_(__VA_ARGS__)
#define CELLHOST_METADATA_LIST_16_(a, ...) CELLHOST_METADATA_QUOTE_(a) "," CELLHOST_METADATA_LIST_15_(__VA_ARGS__)
#define CELLHOST_METADATA_COUNT_(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, n, ...) n
#define CELLHOST_METADATA_PASTE_(n) CELLHOST_METADATA_LIST_##n##_
#define CELLHOST_METADATA_SELECT_(n) CELLHOST_METADATA_PASTE_(n)
/* A JSON array of the type ids, for CELLHOST_METADATA's last argument. */
#define CELLHOST_METADATA_TYPES(...) "[" CELLHOST_METADATA_SELECT_(CELLHOST_METADATA_COUNT_(__VA_ARGS__, \
    16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0))(__VA_ARGS__) "]"

/* `used` keeps the array although nothing refers to it; `retain` keeps its section through
 * --gc-sections where the toolchain knows it. */
#if defined(__has_attribute)
#  if __has_attribute(retain)
#    define CELLHOST_METADATA_RETAIN_ , retain
#  endif
#endif
#if !defined(CELLHOST_METADATA_RETAIN_)
#  define CELLHOST_METADATA_RETAIN_
#endif

#define CELLHOST_METADATA(plugin_id, name, version, vendor, description, types) \
    __attribute__((section(CELLHOST_METADATA_SECTION), used CELLHOST_METADATA_RETAIN_)) \
    static const char cellhost_plugin_metadata_[] = \
        "{\"cellhost-metadata\":" CELLHOST_METADATA_NUMBER_(CELLHOST_METADATA_FORMAT) \
        ",\"id\":" CELLHOST_METADATA_QUOTE_(plugin_id) ",\"name\":" CELLHOST_METADATA_QUOTE_(name) \
        ",\"version\":" CELLHOST_METADATA_QUOTE_(version) ",\"vendor\":" CELLHOST_METADATA_QUOTE_(vendor) \
        ",\"description\":" CELLHOST_METADATA_QUOTE_(description) \
        ",\"abi\":\"" CELLHOST_METADATA_NUMBER_(CELLHOST_ABI_MAJOR) "." CELLHOST_METADATA_NUMBER_(CELLHOST_ABI_MINOR) "\"" \
        ",\"types\":" types "}"

/* At the head of every struct. Fill with CELLHOST_HEADER(type). */
typedef struct cellhost_header {
    uint32_t struct_size;
    uint16_t abi_major;
    uint16_t abi_minor;
} cellhost_header;

#define CELLHOST_HEADER(type) { (uint32_t)sizeof(type), CELLHOST_ABI_MAJOR, CELLHOST_ABI_MINOR }

/* Whether the struct `s` points to (of C type `type`, starting with a header) carries `field`:
 * its struct_size reaches past the field's end. Read an appended field only when this holds. */
#define CELLHOST_HAS_FIELD(s, type, field) \
    ((size_t)(s)->header.struct_size >= offsetof(type, field) + sizeof(((type *)0)->field))

/* ---------------------------------------------------------------------------------------- */
/* Values (cross by value; no header: their layout is fixed by their encoding)               */

typedef struct cellhost_color { double red, green, blue, alpha; } cellhost_color;         /* {Color=dddd} */
typedef struct cellhost_size { double width, height; } cellhost_size;                     /* {Size=dd} */
typedef struct cellhost_insets { double top, leading, bottom, trailing; } cellhost_insets; /* {Insets=dddd} */
typedef struct cellhost_point { double x, y; } cellhost_point;
typedef struct cellhost_rect { double x, y, width, height; } cellhost_rect;

/* A colour transformer (UIKit's UIConfigurationColorTransformer): colour in, colour out.
 * Transformers the host hands out are valid until the process ends and may be called from any
 * call into the plugin. */
typedef cellhost_color (*cellhost_color_transformer)(cellhost_color color);

/* Every function pointer in a property or action descriptor is stored as this type; the host
 * calls it with the signature its encoding describes. */
typedef void (*cellhost_fn)(void);

typedef int32_t cellhost_font_weight;
#define CELLHOST_FONT_REGULAR 0
#define CELLHOST_FONT_MEDIUM 1
#define CELLHOST_FONT_SEMIBOLD 2
#define CELLHOST_FONT_BOLD 3

typedef int32_t cellhost_text_style; /* UIFont.TextStyle */
#define CELLHOST_TEXT_STYLE_NONE (-1)
#define CELLHOST_TEXT_STYLE_LARGE_TITLE 0
#define CELLHOST_TEXT_STYLE_TITLE1 1
#define CELLHOST_TEXT_STYLE_TITLE2 2
#define CELLHOST_TEXT_STYLE_TITLE3 3
#define CELLHOST_TEXT_STYLE_HEADLINE 4
#define CELLHOST_TEXT_STYLE_BODY 5
#define CELLHOST_TEXT_STYLE_CALLOUT 6
#define CELLHOST_TEXT_STYLE_SUBHEADLINE 7
#define CELLHOST_TEXT_STYLE_FOOTNOTE 8
#define CELLHOST_TEXT_STYLE_CAPTION1 9
#define CELLHOST_TEXT_STYLE_CAPTION2 10

typedef struct cellhost_font {
    const char *family;            /* NULL = the system family. Host-returned: static. */
    double point_size;
    cellhost_font_weight weight;
    bool italic;
    cellhost_text_style text_style; /* the style it was made for, or CELLHOST_TEXT_STYLE_NONE */
} cellhost_font;

/* ---------------------------------------------------------------------------------------- */
/* Traits and states                                                                          */

typedef int32_t cellhost_enum;
/* user_interface_style */
#define CELLHOST_STYLE_LIGHT 0
#define CELLHOST_STYLE_DARK 1
/* layout_direction */
#define CELLHOST_LTR 0
#define CELLHOST_RTL 1
/* size classes */
#define CELLHOST_SIZE_CLASS_UNSPECIFIED 0
#define CELLHOST_SIZE_CLASS_COMPACT 1
#define CELLHOST_SIZE_CLASS_REGULAR 2
/* contrast */
#define CELLHOST_CONTRAST_NORMAL 0
#define CELLHOST_CONTRAST_HIGH 1
/* list_environment: 0 none, 1 plain, 2 grouped, 3 insetGrouped, 4 sidebar, 5 sidebarPlain */
/* content_size_category: 0 XS, 1 S, 2 M, 3 L (default), 4 XL, 5 XXL, 6 XXXL, 7…11 AX1…AX5 */
#define CELLHOST_CONTENT_SIZE_LARGE 3
#define CELLHOST_CONTENT_SIZE_FIRST_ACCESSIBILITY 7

typedef struct cellhost_traits {
    cellhost_header header;
    cellhost_enum user_interface_style;
    cellhost_enum content_size_category;
    cellhost_enum layout_direction;
    cellhost_enum horizontal_size_class;
    cellhost_enum vertical_size_class;
    cellhost_enum list_environment;
    cellhost_enum accessibility_contrast;
    double display_scale; /* 1, 2 or 3 */
} cellhost_traits;

/* user_interface_level (ABI 1.2): UIKit's UIUserInterfaceLevel */
#define CELLHOST_LEVEL_BASE 0
#define CELLHOST_LEVEL_ELEVATED 1
/* legibility_weight (ABI 1.2): UIKit's UILegibilityWeight (bold = Bold Text on) */
#define CELLHOST_LEGIBILITY_REGULAR 0
#define CELLHOST_LEGIBILITY_BOLD 1
/* user_interface_idiom (ABI 1.2): UIKit's UIUserInterfaceIdiom */
#define CELLHOST_IDIOM_PHONE 0
#define CELLHOST_IDIOM_PAD 1

/* ABI 1.2: the traits that cellhost_traits has no room for (see VERSIONING). No header: it is
 * appended, whole, at the end of cellhost_state and cellhost_context, and present exactly when
 * CELLHOST_HAS_FIELD(s, cellhost_state, extra_traits) (or cellhost_context) holds. Host services
 * that take a `const cellhost_traits *` answer for the extra traits of the state or context the
 * running call was handed when given traits equal to its `traits` (a 1.2 plugin only); for any
 * other traits, NULL, or a 1.1 plugin, they resolve for the base level, regular weight and phone. */
typedef struct cellhost_extra_traits {
    cellhost_enum user_interface_level; /* CELLHOST_LEVEL_* */
    cellhost_enum legibility_weight;    /* CELLHOST_LEGIBILITY_* */
    cellhost_enum user_interface_idiom; /* CELLHOST_IDIOM_* */
} cellhost_extra_traits;

/* State flags (cellhost_state.flags). The last four exist only in cell states. */
#define CELLHOST_STATE_HIGHLIGHTED (1u << 0)
#define CELLHOST_STATE_SELECTED    (1u << 1)
#define CELLHOST_STATE_DISABLED    (1u << 2)
#define CELLHOST_STATE_FOCUSED     (1u << 3)
#define CELLHOST_STATE_PINNED      (1u << 4)
#define CELLHOST_STATE_EDITING     (1u << 5)
#define CELLHOST_STATE_EXPANDED    (1u << 6)
#define CELLHOST_STATE_SWIPED      (1u << 7)
#define CELLHOST_STATE_REORDERING  (1u << 8)

#define CELLHOST_STATE_KIND_VIEW 0 /* a header's, footer's or plain view's state */
#define CELLHOST_STATE_KIND_CELL 1

#define CELLHOST_DRAG_NONE 0
#define CELLHOST_DRAG_LIFTING 1
#define CELLHOST_DRAG_DRAGGING 2
#define CELLHOST_DROP_NONE 0
#define CELLHOST_DROP_NOT_TARGETED 1
#define CELLHOST_DROP_TARGETED 2

#define CELLHOST_VALUE_BOOL 0
#define CELLHOST_VALUE_INT 1
#define CELLHOST_VALUE_DOUBLE 2
#define CELLHOST_VALUE_STRING 3

/* One app-defined custom state (UIConfigurationStateCustomKey → value). */
typedef struct cellhost_custom_state {
    const char *key;     /* NUL-terminated */
    cellhost_enum kind;  /* CELLHOST_VALUE_* */
    union { bool b; int64_t i; double d; const char *s; } value;
} cellhost_custom_state;

/* A configuration state. Host-owned, valid only during the call it is passed to. */
typedef struct cellhost_state {
    cellhost_header header;
    cellhost_enum kind;          /* CELLHOST_STATE_KIND_* */
    uint32_t flags;              /* CELLHOST_STATE_* */
    cellhost_enum drag_state;    /* CELLHOST_DRAG_* */
    cellhost_enum drop_state;    /* CELLHOST_DROP_* */
    cellhost_traits traits;
    const cellhost_custom_state *custom_states; /* sorted by key */
    uint32_t custom_state_count;
    cellhost_extra_traits extra_traits; /* ABI 1.2 */
} cellhost_state;

/* ---------------------------------------------------------------------------------------- */
/* Host objects handed to plugin code                                                         */

/* A plugin defines `struct cellhost_config` and `struct cellhost_view` as its own types; the
 * host only passes the pointers around. */
typedef struct cellhost_config cellhost_config;       /* a plugin configuration (plugin-owned) */
typedef struct cellhost_view cellhost_view;           /* a plugin content view (plugin-owned) */
typedef struct cellhost_canvas cellhost_canvas;       /* where a view draws (host-owned, per call) */
typedef struct cellhost_list_view cellhost_list_view; /* an embedded host ListContentView */

/* What a view lays out and draws with. Host-owned, valid only during the call. */
typedef struct cellhost_context {
    cellhost_header header;
    cellhost_traits traits;
    const void *host_data; /* opaque: pass the context back to host services unchanged */
    cellhost_extra_traits extra_traits; /* ABI 1.2 */
} cellhost_context;

typedef int32_t cellhost_text_alignment; /* 0 natural, 1 left, 2 center, 3 right, 4 justified */
typedef int32_t cellhost_line_break;     /* 0 word wrap, 1 char wrap, 2 clip, 3 truncate head, 4 truncate tail, 5 truncate middle */
typedef int32_t cellhost_content_mode;   /* 0 scaleToFill, 1 scaleAspectFit, 2 scaleAspectFill, 3 center */

typedef struct cellhost_text_request {
    cellhost_header header;
    const char *text;      /* UTF-8, `length` bytes, no NUL needed */
    size_t length;
    cellhost_font font;
    int32_t number_of_lines; /* 0 = unlimited */
    cellhost_line_break line_break;
} cellhost_text_request;

typedef struct cellhost_text_metrics {
    cellhost_size size;
    int32_t line_count;
    double first_baseline, last_baseline, line_height;
} cellhost_text_metrics;

/* A run of text drawn inside `frame`, laid out with the rules measure_text used. */
typedef struct cellhost_text_run {
    cellhost_header header;
    cellhost_text_request text;
    cellhost_color color;
    cellhost_rect frame;
    cellhost_text_alignment alignment;
} cellhost_text_run;

/* The content of an embedded host ListContentView (a ListContentConfiguration of `style`,
 * updated for the state passed along). NULL strings leave the part out. */
typedef struct cellhost_list_content {
    cellhost_header header;
    const char *text;
    const char *secondary_text;
    const char *symbol_name;  /* an image symbol ("star.fill") */
} cellhost_list_content;

#define CELLHOST_LOG_DEBUG 0
#define CELLHOST_LOG_INFO 1
#define CELLHOST_LOG_WARNING 2
#define CELLHOST_LOG_ERROR 3

/* The host services table. Host-owned and valid until the process ends; handed to the plugin's
 * `init`. Every function is always present (never NULL) in a table whose struct_size covers it. */
typedef struct cellhost_host {
    cellhost_header header;
    const char *host_name;
    const char *host_version;

    /* Optional host features by reverse-DNS id; NULL when absent. */
    const void *(*get_extension)(const char *id);

    /* Logging: shown in the host's trace, tagged with the plugin. Any thread. */
    void (*log)(int32_t level, const char *message);

    /* The canvas: each call records one drawing command (CellKit's DisplayCommand), in the
     * drawing view's coordinates. Only during `draw`, on the canvas passed to it. */
    void (*fill)(cellhost_canvas *canvas, cellhost_rect rect, cellhost_color color);
    void (*rounded_rect)(cellhost_canvas *canvas, cellhost_rect rect, double corner_radius, cellhost_color color);
    void (*stroke)(cellhost_canvas *canvas, cellhost_rect rect, double corner_radius, double width, cellhost_color color);
    void (*text)(cellhost_canvas *canvas, const cellhost_text_run *run);
    void (*symbol)(cellhost_canvas *canvas, const char *name, cellhost_rect frame, double point_size,
                   cellhost_font_weight weight, cellhost_color color);
    /* `tint` may be NULL (no recolouring). */
    void (*image)(cellhost_canvas *canvas, const char *png_path, cellhost_rect frame, cellhost_content_mode mode,
                  const cellhost_color *tint);
    void (*push_clip)(cellhost_canvas *canvas, cellhost_rect rect, double corner_radius);
    void (*pop_clip)(cellhost_canvas *canvas);
    void (*push_alpha)(cellhost_canvas *canvas, double alpha);
    void (*pop_alpha)(cellhost_canvas *canvas);

    /* Text measurement with the host's fonts; `width` < 0 means unconstrained. During
     * size_that_fits and draw, with the context passed to them. */
    cellhost_text_metrics (*measure_text)(const cellhost_context *context, const cellhost_text_request *request,
                                          double width);

    /* System defaults for the given traits ("configurations as a source of default values");
     * `traits` NULL means the default traits (light, Large text, LTR, @2x). Any call into the
     * plugin, including make_default. */
    cellhost_font (*default_font)(const cellhost_traits *traits, cellhost_text_style style);
    /* A named system colour ("label", "systemBlue", "secondarySystemBackground", …) resolved
     * for the traits. Returns false and leaves *out alone for an unknown name. */
    bool (*system_color)(const cellhost_traits *traits, const char *name, cellhost_color *out);
    cellhost_insets (*default_layout_margins)(const cellhost_traits *traits);

    /* Colour transformers: a built-in by name ("identity", "grayscale", "preferredTint",
     * "monochromeTint", "pressed", "faded"), NULL when unknown; and `first` then `second` composed into one. Both return
     * host functions valid until the process ends. */
    cellhost_color_transformer (*color_transformer)(const char *name);
    cellhost_color_transformer (*compose_color_transformers)(cellhost_color_transformer first,
                                                             cellhost_color_transformer second);

    /* An embedded host ListContentView, for a plugin view that shows standard list content
     * next to its own. create: NULL when the style is unknown or the host has no list content.
     * The plugin view owns what it creates and destroys it in its own destroy. */
    cellhost_list_view *(*list_view_create)(const char *style);
    void (*list_view_set_content)(cellhost_list_view *view, const cellhost_list_content *content,
                                  const cellhost_state *state);
    cellhost_size (*list_view_size_that_fits)(cellhost_list_view *view, cellhost_size target,
                                              const cellhost_context *context);
    void (*list_view_draw)(cellhost_list_view *view, cellhost_rect bounds, const cellhost_context *context,
                           cellhost_canvas *canvas);
    void (*list_view_destroy)(cellhost_list_view *view);
} cellhost_host;

/* ---------------------------------------------------------------------------------------- */
/* What a plugin describes                                                                    */

typedef struct cellhost_property {
    cellhost_header header;
    const char *name;     /* identifier: [A-Za-z_][A-Za-z0-9_]* (dots are for nesting) */
    const char *encoding; /* one type encoding */
    cellhost_fn getter;   /* required */
    cellhost_fn setter;   /* NULL = read-only */
    void *user_data;      /* for the plugin's own use */
} cellhost_property;

typedef struct cellhost_action {
    cellhost_header header;
    const char *name;
    const char *encoding;        /* argument encodings concatenated, "" for none */
    const char *argument_names;  /* comma-separated names for signatures ("by,animated"); may be NULL */
    cellhost_fn function;        /* required */
    void *user_data;
} cellhost_action;

/* A content view type. Host calls, in this order over a view's life: make (once), any number
 * of supports / set_configuration / size_that_fits / draw, destroy (once). */
typedef struct cellhost_view_type {
    cellhost_header header;
    /* A view already showing `initial` (it must draw from it without a second set). The view
     * keeps its own copy of what it needs; the host still owns `initial`. */
    cellhost_view *(*make)(const cellhost_config *initial);
    /* Whether this view can show `candidate` (reused) or the host must make a new one
     * (replaced). `candidate` is always of this view's configuration type. */
    bool (*supports)(const cellhost_view *view, const cellhost_config *candidate);
    /* Applies `config` at once. Host owns `config`; copy what you keep. */
    void (*set_configuration)(cellhost_view *view, const cellhost_config *config);
    /* Self-sizing: the size wanted at target.width (height computed). */
    cellhost_size (*size_that_fits)(cellhost_view *view, cellhost_size target, const cellhost_context *context);
    /* Draws the current configuration into `canvas`, bounds at the origin. */
    void (*draw)(cellhost_view *view, cellhost_rect bounds, const cellhost_context *context, cellhost_canvas *canvas);
    void (*destroy)(cellhost_view *view);
} cellhost_view_type;

/* A configuration type. Configurations are values: the host copies before every change and
 * destroys every configuration it created or copied. */
typedef struct cellhost_config_type {
    cellhost_header header;
    const char *type_id;      /* reverse-DNS, unique across all loaded plugins: "com.example.progress" */
    const char *display_name; /* may be NULL */
    const cellhost_property *properties; /* array, stride = properties[0].header.struct_size */
    uint32_t property_count;
    const cellhost_action *actions;      /* may be NULL when action_count is 0 */
    uint32_t action_count;

    /* All required. make_default: a new configuration with default values, nothing customised
     * (`type` is this descriptor, so one function can serve several types through user_data).
     * copy: an independent copy. destroy: frees a configuration from make_default, copy or
     * updated_for_state. equal: value equality. */
    cellhost_config *(*make_default)(const struct cellhost_config_type *type);
    cellhost_config *(*copy)(const cellhost_config *config);
    void (*destroy)(cellhost_config *config);
    bool (*equal)(const cellhost_config *a, const cellhost_config *b);
    /* A new configuration restyled for `state`; must not change `config`; customised
     * properties keep their values. The host owns and destroys the result. */
    cellhost_config *(*updated_for_state)(const cellhost_config *config, const cellhost_state *state);
    /* Whether the named property was set explicitly (locked). */
    bool (*is_customized)(const cellhost_config *config, const char *property_name);

    const cellhost_view_type *view_type; /* required */

    /* Optional (may be NULL): the cell-level hook (UIKit's updateConfiguration(using:)), called
     * by the cell after updated_for_state with the configuration about to be applied. Returns a
     * new configuration the host owns, or NULL to keep `config` unchanged. */
    cellhost_config *(*update_configuration)(const cellhost_config *config, const cellhost_state *state);

    void *user_data; /* for the plugin's own use */

    /* ABI 1.1: CELLHOST_CONFIG_* bits, 0 for none. */
    uint32_t flags;
} cellhost_config_type;

/* A promise about updated_for_state: its result depends only on the values set on the
 * configuration (by make_default, setters and actions) and on the state, and the call has no
 * other effect. So for a configuration and every configuration restyled from it, equal states
 * give equal results, and the host may hand back a result it got for an equal state instead of
 * calling again: a highlight toggled on and off restyles twice, not on every toggle.
 * `cellhost validate` checks the promise on sample states. */
#define CELLHOST_CONFIG_PURE_RESTYLE 1u

typedef struct cellhost_plugin_descriptor {
    cellhost_header header;
    uint32_t magic;            /* CELLHOST_DESCRIPTOR_MAGIC */
    const char *plugin_id;     /* reverse-DNS: "com.example.meters" */
    const char *name;
    const char *version;       /* the plugin's own version, free form ("1.2.0") */
    const char *vendor;
    const char *description;   /* may be NULL */
    const cellhost_config_type *const *types; /* array of type_count pointers */
    uint32_t type_count;
    /* Optional: called once, before any other call, with the host services. Returns false to
     * refuse to load (log why first). */
    bool (*init)(const cellhost_host *host);
    /* Optional: plugin features by reverse-DNS id; NULL when absent. */
    const void *(*get_extension)(const char *id);
} cellhost_plugin_descriptor;

typedef const cellhost_plugin_descriptor *(*cellhost_plugin_entry_fn)(void);

#ifdef __cplusplus
}
#endif
#endif

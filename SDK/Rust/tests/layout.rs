//! The bindings against the C header, by name: `cc` compiles a program from
//! `SDK/include/cellhost/plugin.h` that prints the size of every struct, the offset of every
//! field and the value of every constant, and each must equal what Rust computes for the field or
//! constant of the same name. A swapped pair of same-typed fields (two host services, say)
//! keeps every size but moves two offsets, so it fails here. The field list is checked against
//! the fields the header declares, so a field added to the header without a binding fails too.

use cellhost_plugin::sys::*;
use std::collections::{BTreeMap, BTreeSet};
use std::mem::{offset_of, size_of};
use std::process::Command;

/// (struct, field, Rust offset) for every field, and (struct, Rust size) for every struct.
macro_rules! layout {
    ($($name:ident { $($field:ident),* $(,)? })*) => {{
        let mut sizes: Vec<(&'static str, usize)> = Vec::new();
        let mut offsets: Vec<(&'static str, &'static str, usize)> = Vec::new();
        $(
            sizes.push((stringify!($name), size_of::<$name>()));
            $( offsets.push((stringify!($name), stringify!($field), offset_of!($name, $field))); )*
        )*
        (sizes, offsets)
    }};
}

macro_rules! constants {
    ($($name:ident),* $(,)?) => { vec![$((stringify!($name), $name as i64)),*] };
}

fn rust_layout() -> (Vec<(&'static str, usize)>, Vec<(&'static str, &'static str, usize)>) {
    layout! {
        cellhost_header { struct_size, abi_major, abi_minor }
        cellhost_color { red, green, blue, alpha }
        cellhost_size { width, height }
        cellhost_insets { top, leading, bottom, trailing }
        cellhost_point { x, y }
        cellhost_rect { x, y, width, height }
        cellhost_font { family, point_size, weight, italic, text_style }
        cellhost_traits { header, user_interface_style, content_size_category, layout_direction,
            horizontal_size_class, vertical_size_class, list_environment, accessibility_contrast, display_scale }
        cellhost_extra_traits { user_interface_level, legibility_weight, user_interface_idiom }
        cellhost_custom_state { key, kind, value }
        cellhost_state { header, kind, flags, drag_state, drop_state, traits, custom_states, custom_state_count,
            extra_traits }
        cellhost_context { header, traits, host_data, extra_traits }
        cellhost_text_request { header, text, length, font, number_of_lines, line_break }
        cellhost_text_metrics { size, line_count, first_baseline, last_baseline, line_height }
        cellhost_text_run { header, text, color, frame, alignment }
        cellhost_list_content { header, text, secondary_text, symbol_name }
        cellhost_host { header, host_name, host_version, get_extension, log, fill, rounded_rect, stroke, text,
            symbol, image, push_clip, pop_clip, push_alpha, pop_alpha, measure_text, default_font, system_color,
            default_layout_margins, color_transformer, compose_color_transformers, list_view_create,
            list_view_set_content, list_view_size_that_fits, list_view_draw, list_view_destroy }
        cellhost_property { header, name, encoding, getter, setter, user_data }
        cellhost_action { header, name, encoding, argument_names, function, user_data }
        cellhost_view_type { header, make, supports, set_configuration, size_that_fits, draw, destroy }
        cellhost_config_type { header, type_id, display_name, properties, property_count, actions, action_count,
            make_default, copy, destroy, equal, updated_for_state, is_customized, view_type,
            update_configuration, user_data, flags }
        cellhost_plugin_descriptor { header, magic, plugin_id, name, version, vendor, description, types,
            type_count, init, get_extension }
    }
}

fn rust_constants() -> Vec<(&'static str, i64)> {
    constants![
        CELLHOST_ABI_MAJOR, CELLHOST_ABI_MINOR, CELLHOST_DESCRIPTOR_MAGIC, CELLHOST_METADATA_FORMAT,
        CELLHOST_FONT_REGULAR, CELLHOST_FONT_MEDIUM, CELLHOST_FONT_SEMIBOLD, CELLHOST_FONT_BOLD,
        CELLHOST_TEXT_STYLE_NONE, CELLHOST_TEXT_STYLE_LARGE_TITLE, CELLHOST_TEXT_STYLE_TITLE1,
        CELLHOST_TEXT_STYLE_TITLE2, CELLHOST_TEXT_STYLE_TITLE3, CELLHOST_TEXT_STYLE_HEADLINE, CELLHOST_TEXT_STYLE_BODY,
        CELLHOST_TEXT_STYLE_CALLOUT, CELLHOST_TEXT_STYLE_SUBHEADLINE, CELLHOST_TEXT_STYLE_FOOTNOTE,
        CELLHOST_TEXT_STYLE_CAPTION1, CELLHOST_TEXT_STYLE_CAPTION2,
        CELLHOST_STYLE_LIGHT, CELLHOST_STYLE_DARK, CELLHOST_LTR, CELLHOST_RTL,
        CELLHOST_SIZE_CLASS_UNSPECIFIED, CELLHOST_SIZE_CLASS_COMPACT, CELLHOST_SIZE_CLASS_REGULAR,
        CELLHOST_CONTRAST_NORMAL, CELLHOST_CONTRAST_HIGH, CELLHOST_CONTENT_SIZE_LARGE,
        CELLHOST_LEVEL_BASE, CELLHOST_LEVEL_ELEVATED, CELLHOST_LEGIBILITY_REGULAR, CELLHOST_LEGIBILITY_BOLD,
        CELLHOST_IDIOM_PHONE, CELLHOST_IDIOM_PAD,
        CELLHOST_CONTENT_SIZE_FIRST_ACCESSIBILITY,
        CELLHOST_STATE_HIGHLIGHTED, CELLHOST_STATE_SELECTED, CELLHOST_STATE_DISABLED, CELLHOST_STATE_FOCUSED,
        CELLHOST_STATE_PINNED, CELLHOST_STATE_EDITING, CELLHOST_STATE_EXPANDED, CELLHOST_STATE_SWIPED,
        CELLHOST_STATE_REORDERING, CELLHOST_STATE_KIND_VIEW, CELLHOST_STATE_KIND_CELL,
        CELLHOST_DRAG_NONE, CELLHOST_DRAG_LIFTING, CELLHOST_DRAG_DRAGGING,
        CELLHOST_DROP_NONE, CELLHOST_DROP_NOT_TARGETED, CELLHOST_DROP_TARGETED,
        CELLHOST_VALUE_BOOL, CELLHOST_VALUE_INT, CELLHOST_VALUE_DOUBLE, CELLHOST_VALUE_STRING,
        CELLHOST_LOG_DEBUG, CELLHOST_LOG_INFO, CELLHOST_LOG_WARNING, CELLHOST_LOG_ERROR,
        CELLHOST_CONFIG_PURE_RESTYLE,
    ]
}

fn header_path() -> String {
    format!("{}/../include/cellhost/plugin.h", env!("CARGO_MANIFEST_DIR"))
}

fn header_text() -> String {
    std::fs::read_to_string(header_path()).expect("SDK/include/cellhost/plugin.h is readable")
}

/// The header without comments, so declarations can be read from it.
fn without_comments(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("/*") {
            rest = after.find("*/").map_or("", |end| &after[end + 2..]);
            out.push(' ');
        } else if let Some(after) = rest.strip_prefix("//") {
            rest = after.find('\n').map_or("", |end| &after[end..]);
        } else {
            let c = rest.chars().next().unwrap();
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

fn is_identifier_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

fn last_identifier(text: &str) -> Option<String> {
    let trimmed = text.trim_end_matches(|c: char| !is_identifier_char(c));
    let start = trimmed.rfind(|c: char| !is_identifier_char(c)).map_or(0, |i| i + 1);
    let name = &trimmed[start..];
    (!name.is_empty()).then(|| name.to_string())
}

/// Every `typedef struct NAME { … } NAME;` of the header with the names of its fields, in order:
/// `double red, green;` declares two, `void (*log)(…);` declares `log`, `union { … } value;`
/// declares `value`.
fn header_structs() -> BTreeMap<String, Vec<String>> {
    let text = without_comments(&header_text());
    let mut structs = BTreeMap::new();
    let mut rest = text.as_str();
    while let Some(start) = rest.find("typedef struct ") {
        rest = &rest[start + "typedef struct ".len()..];
        let name_end = rest.find(|c: char| !is_identifier_char(c)).unwrap_or(rest.len());
        let name = rest[..name_end].to_string();
        let after_name = rest[name_end..].trim_start();
        if !after_name.starts_with('{') {
            continue; // an opaque declaration: `typedef struct cellhost_config cellhost_config;`
        }
        let body_start = rest.len() - after_name.len() + 1;
        let mut depth = 1;
        let mut body_end = body_start;
        for (i, c) in rest[body_start..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ => {}
            }
            if depth == 0 {
                body_end = body_start + i;
                break;
            }
        }
        structs.insert(name, field_names(&rest[body_start..body_end]));
        rest = &rest[body_end..];
    }
    structs
}

fn field_names(body: &str) -> Vec<String> {
    let mut declarations = Vec::new();
    let (mut braces, mut parens, mut current) = (0, 0, String::new());
    for c in body.chars() {
        match c {
            '{' => braces += 1,
            '}' => braces -= 1,
            '(' => parens += 1,
            ')' => parens -= 1,
            ';' if braces == 0 && parens == 0 => {
                declarations.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        if braces == 0 || c == '}' {
            current.push(c);
        }
    }
    let mut names = Vec::new();
    for declaration in declarations.iter().map(|d| d.trim()).filter(|d| !d.is_empty()) {
        if let Some(pointer) = declaration.find("(*") {
            let after = &declaration[pointer + 2..];
            names.push(after[..after.find(')').unwrap()].trim().to_string());
        } else {
            names.extend(declaration.split(',').filter_map(last_identifier));
        }
    }
    names
}

/// Every `#define CELLHOST_NAME value` whose value is an integer expression.
fn header_integer_constants() -> BTreeSet<String> {
    without_comments(&header_text())
        .lines()
        .filter_map(|line| {
            let rest = line.trim().strip_prefix("#define ")?;
            let (name, value) = rest.split_once(char::is_whitespace)?;
            let value = value.trim();
            let integer = value.starts_with(|c: char| c.is_ascii_digit() || c == '(' || c == '-');
            (name.starts_with("CELLHOST_") && !name.contains('(') && integer).then(|| name.to_string())
        })
        .collect()
}

/// What C says for every checked name, compiled and run once for all tests.
fn c_layout() -> &'static BTreeMap<String, i64> {
    static LAYOUT: std::sync::OnceLock<BTreeMap<String, i64>> = std::sync::OnceLock::new();
    LAYOUT.get_or_init(|| {
        let (sizes, offsets) = rust_layout();
        compile_c_layout(&sizes, &offsets, &rust_constants())
    })
}

/// Compiles and runs a C program printing `size NAME N`, `offset NAME.FIELD N` and
/// `constant NAME N` lines for the given names.
fn compile_c_layout(sizes: &[(&str, usize)], offsets: &[(&str, &str, usize)], constants: &[(&str, i64)]) -> BTreeMap<String, i64> {
    let mut program = String::from("#include <stdio.h>\n#include \"cellhost/plugin.h\"\nint main(void) {\n");
    for (name, _) in sizes {
        program += &format!("    printf(\"size {name} %zu\\n\", sizeof({name}));\n");
    }
    for (name, field, _) in offsets {
        program += &format!("    printf(\"offset {name}.{field} %zu\\n\", offsetof({name}, {field}));\n");
    }
    for (name, _) in constants {
        program += &format!("    printf(\"constant {name} %lld\\n\", (long long)({name}));\n");
    }
    program += "    return 0;\n}\n";
    let directory = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("layout");
    std::fs::create_dir_all(&directory).unwrap();
    let source = directory.join("layout.c");
    let binary = directory.join("layout");
    std::fs::write(&source, program).unwrap();
    let include = format!("{}/../include", env!("CARGO_MANIFEST_DIR"));
    let compiled = Command::new(std::env::var("CC").unwrap_or_else(|_| "cc".into()))
        .args(["-std=c99", "-Wall", "-Werror", "-I", &include, "-o"])
        .arg(&binary)
        .arg(&source)
        .output()
        .expect("a C compiler (cc) is installed");
    assert!(compiled.status.success(), "cc failed:\n{}", String::from_utf8_lossy(&compiled.stderr));
    let run = Command::new(&binary).output().unwrap();
    assert!(run.status.success());
    String::from_utf8(run.stdout)
        .unwrap()
        .lines()
        .map(|line| {
            let mut parts = line.split(' ');
            let (kind, name, value) = (parts.next().unwrap(), parts.next().unwrap(), parts.next().unwrap());
            (format!("{kind} {name}"), value.parse().unwrap())
        })
        .collect()
}

type Sizes = Vec<(&'static str, usize)>;
type Offsets = Vec<(&'static str, &'static str, usize)>;

/// Every size, offset and constant where Rust and C differ, as "offset NAME.FIELD: C n Rust m".
fn mismatches(sizes: &Sizes, offsets: &Offsets, constants: &[(&str, i64)], c: &BTreeMap<String, i64>) -> Vec<String> {
    let rust = sizes.iter().map(|(name, size)| (format!("size {name}"), *size as i64))
        .chain(offsets.iter().map(|(name, field, offset)| (format!("offset {name}.{field}"), *offset as i64)))
        .chain(constants.iter().map(|(name, value)| (format!("constant {name}"), *value)));
    rust.filter(|(key, value)| c[key] != *value).map(|(key, value)| format!("{key}: C {} Rust {value}", c[&key])).collect()
}

#[test]
fn every_struct_size_field_offset_and_constant_matches_the_header() {
    let (sizes, offsets) = rust_layout();
    let constants = rust_constants();
    let found = mismatches(&sizes, &offsets, &constants, c_layout());
    assert!(found.is_empty(), "the bindings differ from plugin.h:\n{}", found.join("\n"));
}

/// Two host services of one type swapped keep every size; the comparison by name still sees
/// both offsets move.
#[test]
fn a_swapped_pair_of_same_typed_fields_is_reported() {
    let (sizes, mut offsets) = rust_layout();
    let position = |field: &str| offsets.iter().position(|(s, f, _)| *s == "cellhost_host" && *f == field).unwrap();
    let (clip, alpha) = (position("pop_clip"), position("pop_alpha"));
    let (clip_offset, alpha_offset) = (offsets[clip].2, offsets[alpha].2);
    offsets[clip].2 = alpha_offset;
    offsets[alpha].2 = clip_offset;
    let found = mismatches(&sizes, &offsets, &[], c_layout());
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].starts_with("offset cellhost_host.pop_clip") && found[1].starts_with("offset cellhost_host.pop_alpha"));
}

#[test]
fn the_checked_list_covers_every_struct_field_and_constant_of_the_header() {
    let (sizes, offsets) = rust_layout();
    let header = header_structs();
    assert!(header.len() >= 20, "the header parser found only {:?}", header.keys());
    let checked: BTreeSet<&str> = sizes.iter().map(|(name, _)| *name).collect();
    let declared: BTreeSet<&str> = header.keys().map(String::as_str).collect();
    assert_eq!(checked, declared, "structs checked vs structs plugin.h declares");
    for (name, fields) in &header {
        let checked: Vec<&str> = offsets.iter().filter(|(s, _, _)| s == name).map(|(_, f, _)| *f).collect();
        assert_eq!(checked, fields.iter().map(String::as_str).collect::<Vec<_>>(), "fields of {name}");
    }
    let checked: BTreeSet<String> = rust_constants().iter().map(|(name, _)| name.to_string()).collect();
    assert_eq!(checked, header_integer_constants(), "integer constants checked vs plugin.h");
}

#[test]
fn the_entry_symbol_name_matches_the_header() {
    let expected = format!("#define CELLHOST_ENTRY_SYMBOL \"{CELLHOST_ENTRY_SYMBOL}\"");
    assert!(header_text().contains(&expected));
}

#[test]
fn the_metadata_section_name_matches_the_header_and_the_macro() {
    let expected = format!("#define CELLHOST_METADATA_SECTION \"{CELLHOST_METADATA_SECTION}\"");
    assert!(header_text().contains(&expected));
    let source = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src/metadata.rs")).unwrap();
    assert!(source.contains(&format!("#[link_section = \"{CELLHOST_METADATA_SECTION}\"]")));
}

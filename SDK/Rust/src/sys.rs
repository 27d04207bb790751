//! `#[repr(C)]` bindings for everything `SDK/include/cellhost/plugin.h` declares, under the C
//! names so the header stays the documentation. `tests/layout.rs` compares every struct's size
//! and every field's offset, by name, with the header compiled by `cc`.
//!
//! Function pointers are `Option<…>` because the ABI allows NULL in many places and a NULL
//! non-`Option` function pointer is undefined behaviour in Rust.
#![allow(non_camel_case_types)]

use core::ffi::{c_char, c_void};

pub const CELLHOST_ABI_MAJOR: u16 = 1;
pub const CELLHOST_ABI_MINOR: u16 = 2;
pub const CELLHOST_DESCRIPTOR_MAGIC: u32 = 0x4C50_4843;
pub const CELLHOST_ENTRY_SYMBOL: &str = "cellhost_plugin_entry";
pub const CELLHOST_METADATA_SECTION: &str = ".cellhost_metadata";
pub const CELLHOST_METADATA_FORMAT: u16 = 1;

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct cellhost_header {
    pub struct_size: u32,
    pub abi_major: u16,
    pub abi_minor: u16,
}

impl cellhost_header {
    /// The header of a `T` built against this crate's ABI version (C's `CELLHOST_HEADER(type)`).
    pub const fn of<T>() -> Self {
        cellhost_header {
            struct_size: core::mem::size_of::<T>() as u32,
            abi_major: CELLHOST_ABI_MAJOR,
            abi_minor: CELLHOST_ABI_MINOR,
        }
    }
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct cellhost_color {
    pub red: f64,
    pub green: f64,
    pub blue: f64,
    pub alpha: f64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct cellhost_size {
    pub width: f64,
    pub height: f64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct cellhost_insets {
    pub top: f64,
    pub leading: f64,
    pub bottom: f64,
    pub trailing: f64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct cellhost_point {
    pub x: f64,
    pub y: f64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct cellhost_rect {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

pub type cellhost_color_transformer = Option<unsafe extern "C" fn(color: cellhost_color) -> cellhost_color>;
pub type cellhost_fn = Option<unsafe extern "C" fn()>;

pub type cellhost_font_weight = i32;
pub const CELLHOST_FONT_REGULAR: cellhost_font_weight = 0;
pub const CELLHOST_FONT_MEDIUM: cellhost_font_weight = 1;
pub const CELLHOST_FONT_SEMIBOLD: cellhost_font_weight = 2;
pub const CELLHOST_FONT_BOLD: cellhost_font_weight = 3;

pub type cellhost_text_style = i32;
pub const CELLHOST_TEXT_STYLE_NONE: cellhost_text_style = -1;
pub const CELLHOST_TEXT_STYLE_LARGE_TITLE: cellhost_text_style = 0;
pub const CELLHOST_TEXT_STYLE_TITLE1: cellhost_text_style = 1;
pub const CELLHOST_TEXT_STYLE_TITLE2: cellhost_text_style = 2;
pub const CELLHOST_TEXT_STYLE_TITLE3: cellhost_text_style = 3;
pub const CELLHOST_TEXT_STYLE_HEADLINE: cellhost_text_style = 4;
pub const CELLHOST_TEXT_STYLE_BODY: cellhost_text_style = 5;
pub const CELLHOST_TEXT_STYLE_CALLOUT: cellhost_text_style = 6;
pub const CELLHOST_TEXT_STYLE_SUBHEADLINE: cellhost_text_style = 7;
pub const CELLHOST_TEXT_STYLE_FOOTNOTE: cellhost_text_style = 8;
pub const CELLHOST_TEXT_STYLE_CAPTION1: cellhost_text_style = 9;
pub const CELLHOST_TEXT_STYLE_CAPTION2: cellhost_text_style = 10;

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct cellhost_font {
    pub family: *const c_char,
    pub point_size: f64,
    pub weight: cellhost_font_weight,
    pub italic: bool,
    pub text_style: cellhost_text_style,
}

pub type cellhost_enum = i32;
pub const CELLHOST_STYLE_LIGHT: cellhost_enum = 0;
pub const CELLHOST_STYLE_DARK: cellhost_enum = 1;
pub const CELLHOST_LTR: cellhost_enum = 0;
pub const CELLHOST_RTL: cellhost_enum = 1;
pub const CELLHOST_SIZE_CLASS_UNSPECIFIED: cellhost_enum = 0;
pub const CELLHOST_SIZE_CLASS_COMPACT: cellhost_enum = 1;
pub const CELLHOST_SIZE_CLASS_REGULAR: cellhost_enum = 2;
pub const CELLHOST_CONTRAST_NORMAL: cellhost_enum = 0;
pub const CELLHOST_CONTRAST_HIGH: cellhost_enum = 1;
pub const CELLHOST_CONTENT_SIZE_LARGE: cellhost_enum = 3;
pub const CELLHOST_CONTENT_SIZE_FIRST_ACCESSIBILITY: cellhost_enum = 7;

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct cellhost_traits {
    pub header: cellhost_header,
    pub user_interface_style: cellhost_enum,
    pub content_size_category: cellhost_enum,
    pub layout_direction: cellhost_enum,
    pub horizontal_size_class: cellhost_enum,
    pub vertical_size_class: cellhost_enum,
    pub list_environment: cellhost_enum,
    pub accessibility_contrast: cellhost_enum,
    pub display_scale: f64,
}

pub const CELLHOST_LEVEL_BASE: cellhost_enum = 0;
pub const CELLHOST_LEVEL_ELEVATED: cellhost_enum = 1;
pub const CELLHOST_LEGIBILITY_REGULAR: cellhost_enum = 0;
pub const CELLHOST_LEGIBILITY_BOLD: cellhost_enum = 1;
pub const CELLHOST_IDIOM_PHONE: cellhost_enum = 0;
pub const CELLHOST_IDIOM_PAD: cellhost_enum = 1;

/// ABI 1.2: the traits appended at the end of `cellhost_state` and `cellhost_context` (the
/// embedded `cellhost_traits` cannot grow). Read them only when the struct's `struct_size`
/// reaches past them.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct cellhost_extra_traits {
    pub user_interface_level: cellhost_enum,
    pub legibility_weight: cellhost_enum,
    pub user_interface_idiom: cellhost_enum,
}

pub const CELLHOST_STATE_HIGHLIGHTED: u32 = 1 << 0;
pub const CELLHOST_STATE_SELECTED: u32 = 1 << 1;
pub const CELLHOST_STATE_DISABLED: u32 = 1 << 2;
pub const CELLHOST_STATE_FOCUSED: u32 = 1 << 3;
pub const CELLHOST_STATE_PINNED: u32 = 1 << 4;
pub const CELLHOST_STATE_EDITING: u32 = 1 << 5;
pub const CELLHOST_STATE_EXPANDED: u32 = 1 << 6;
pub const CELLHOST_STATE_SWIPED: u32 = 1 << 7;
pub const CELLHOST_STATE_REORDERING: u32 = 1 << 8;

pub const CELLHOST_STATE_KIND_VIEW: cellhost_enum = 0;
pub const CELLHOST_STATE_KIND_CELL: cellhost_enum = 1;

pub const CELLHOST_DRAG_NONE: cellhost_enum = 0;
pub const CELLHOST_DRAG_LIFTING: cellhost_enum = 1;
pub const CELLHOST_DRAG_DRAGGING: cellhost_enum = 2;
pub const CELLHOST_DROP_NONE: cellhost_enum = 0;
pub const CELLHOST_DROP_NOT_TARGETED: cellhost_enum = 1;
pub const CELLHOST_DROP_TARGETED: cellhost_enum = 2;

pub const CELLHOST_VALUE_BOOL: cellhost_enum = 0;
pub const CELLHOST_VALUE_INT: cellhost_enum = 1;
pub const CELLHOST_VALUE_DOUBLE: cellhost_enum = 2;
pub const CELLHOST_VALUE_STRING: cellhost_enum = 3;

/// The anonymous union of `cellhost_custom_state.value`, read according to `kind`.
#[repr(C)]
#[derive(Clone, Copy)]
pub union cellhost_custom_state_value {
    pub b: bool,
    pub i: i64,
    pub d: f64,
    pub s: *const c_char,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct cellhost_custom_state {
    pub key: *const c_char,
    pub kind: cellhost_enum,
    pub value: cellhost_custom_state_value,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct cellhost_state {
    pub header: cellhost_header,
    pub kind: cellhost_enum,
    pub flags: u32,
    pub drag_state: cellhost_enum,
    pub drop_state: cellhost_enum,
    pub traits: cellhost_traits,
    pub custom_states: *const cellhost_custom_state,
    pub custom_state_count: u32,
    pub extra_traits: cellhost_extra_traits,
}

/// Opaque to the host: the plugin's own configuration (the safe layer's boxed value).
#[repr(C)]
pub struct cellhost_config {
    _private: [u8; 0],
}
/// Opaque to the host: the plugin's own content view.
#[repr(C)]
pub struct cellhost_view {
    _private: [u8; 0],
}
/// Host-owned, per drawing call.
#[repr(C)]
pub struct cellhost_canvas {
    _private: [u8; 0],
}
/// An embedded host ListContentView.
#[repr(C)]
pub struct cellhost_list_view {
    _private: [u8; 0],
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct cellhost_context {
    pub header: cellhost_header,
    pub traits: cellhost_traits,
    pub host_data: *const c_void,
    pub extra_traits: cellhost_extra_traits,
}

pub type cellhost_text_alignment = i32;
pub type cellhost_line_break = i32;
pub type cellhost_content_mode = i32;

#[repr(C)]
#[derive(Clone, Copy)]
pub struct cellhost_text_request {
    pub header: cellhost_header,
    pub text: *const c_char,
    pub length: usize,
    pub font: cellhost_font,
    pub number_of_lines: i32,
    pub line_break: cellhost_line_break,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct cellhost_text_metrics {
    pub size: cellhost_size,
    pub line_count: i32,
    pub first_baseline: f64,
    pub last_baseline: f64,
    pub line_height: f64,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct cellhost_text_run {
    pub header: cellhost_header,
    pub text: cellhost_text_request,
    pub color: cellhost_color,
    pub frame: cellhost_rect,
    pub alignment: cellhost_text_alignment,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct cellhost_list_content {
    pub header: cellhost_header,
    pub text: *const c_char,
    pub secondary_text: *const c_char,
    pub symbol_name: *const c_char,
}

pub const CELLHOST_LOG_DEBUG: i32 = 0;
pub const CELLHOST_LOG_INFO: i32 = 1;
pub const CELLHOST_LOG_WARNING: i32 = 2;
pub const CELLHOST_LOG_ERROR: i32 = 3;

#[repr(C)]
pub struct cellhost_host {
    pub header: cellhost_header,
    pub host_name: *const c_char,
    pub host_version: *const c_char,
    pub get_extension: Option<unsafe extern "C" fn(id: *const c_char) -> *const c_void>,
    pub log: Option<unsafe extern "C" fn(level: i32, message: *const c_char)>,
    pub fill: Option<unsafe extern "C" fn(canvas: *mut cellhost_canvas, rect: cellhost_rect, color: cellhost_color)>,
    pub rounded_rect: Option<
        unsafe extern "C" fn(canvas: *mut cellhost_canvas, rect: cellhost_rect, corner_radius: f64, color: cellhost_color),
    >,
    pub stroke: Option<
        unsafe extern "C" fn(
            canvas: *mut cellhost_canvas,
            rect: cellhost_rect,
            corner_radius: f64,
            width: f64,
            color: cellhost_color,
        ),
    >,
    pub text: Option<unsafe extern "C" fn(canvas: *mut cellhost_canvas, run: *const cellhost_text_run)>,
    pub symbol: Option<
        unsafe extern "C" fn(
            canvas: *mut cellhost_canvas,
            name: *const c_char,
            frame: cellhost_rect,
            point_size: f64,
            weight: cellhost_font_weight,
            color: cellhost_color,
        ),
    >,
    pub image: Option<
        unsafe extern "C" fn(
            canvas: *mut cellhost_canvas,
            png_path: *const c_char,
            frame: cellhost_rect,
            mode: cellhost_content_mode,
            tint: *const cellhost_color,
        ),
    >,
    pub push_clip: Option<unsafe extern "C" fn(canvas: *mut cellhost_canvas, rect: cellhost_rect, corner_radius: f64)>,
    pub pop_clip: Option<unsafe extern "C" fn(canvas: *mut cellhost_canvas)>,
    pub push_alpha: Option<unsafe extern "C" fn(canvas: *mut cellhost_canvas, alpha: f64)>,
    pub pop_alpha: Option<unsafe extern "C" fn(canvas: *mut cellhost_canvas)>,
    pub measure_text: Option<
        unsafe extern "C" fn(
            context: *const cellhost_context,
            request: *const cellhost_text_request,
            width: f64,
        ) -> cellhost_text_metrics,
    >,
    pub default_font:
        Option<unsafe extern "C" fn(traits: *const cellhost_traits, style: cellhost_text_style) -> cellhost_font>,
    pub system_color: Option<
        unsafe extern "C" fn(traits: *const cellhost_traits, name: *const c_char, out: *mut cellhost_color) -> bool,
    >,
    pub default_layout_margins: Option<unsafe extern "C" fn(traits: *const cellhost_traits) -> cellhost_insets>,
    pub color_transformer: Option<unsafe extern "C" fn(name: *const c_char) -> cellhost_color_transformer>,
    pub compose_color_transformers: Option<
        unsafe extern "C" fn(
            first: cellhost_color_transformer,
            second: cellhost_color_transformer,
        ) -> cellhost_color_transformer,
    >,
    pub list_view_create: Option<unsafe extern "C" fn(style: *const c_char) -> *mut cellhost_list_view>,
    pub list_view_set_content: Option<
        unsafe extern "C" fn(
            view: *mut cellhost_list_view,
            content: *const cellhost_list_content,
            state: *const cellhost_state,
        ),
    >,
    pub list_view_size_that_fits: Option<
        unsafe extern "C" fn(
            view: *mut cellhost_list_view,
            target: cellhost_size,
            context: *const cellhost_context,
        ) -> cellhost_size,
    >,
    pub list_view_draw: Option<
        unsafe extern "C" fn(
            view: *mut cellhost_list_view,
            bounds: cellhost_rect,
            context: *const cellhost_context,
            canvas: *mut cellhost_canvas,
        ),
    >,
    pub list_view_destroy: Option<unsafe extern "C" fn(view: *mut cellhost_list_view)>,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct cellhost_property {
    pub header: cellhost_header,
    pub name: *const c_char,
    pub encoding: *const c_char,
    pub getter: cellhost_fn,
    pub setter: cellhost_fn,
    pub user_data: *mut c_void,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct cellhost_action {
    pub header: cellhost_header,
    pub name: *const c_char,
    pub encoding: *const c_char,
    pub argument_names: *const c_char,
    pub function: cellhost_fn,
    pub user_data: *mut c_void,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct cellhost_view_type {
    pub header: cellhost_header,
    pub make: Option<unsafe extern "C" fn(initial: *const cellhost_config) -> *mut cellhost_view>,
    pub supports: Option<unsafe extern "C" fn(view: *const cellhost_view, candidate: *const cellhost_config) -> bool>,
    pub set_configuration: Option<unsafe extern "C" fn(view: *mut cellhost_view, config: *const cellhost_config)>,
    pub size_that_fits: Option<
        unsafe extern "C" fn(
            view: *mut cellhost_view,
            target: cellhost_size,
            context: *const cellhost_context,
        ) -> cellhost_size,
    >,
    pub draw: Option<
        unsafe extern "C" fn(
            view: *mut cellhost_view,
            bounds: cellhost_rect,
            context: *const cellhost_context,
            canvas: *mut cellhost_canvas,
        ),
    >,
    pub destroy: Option<unsafe extern "C" fn(view: *mut cellhost_view)>,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct cellhost_config_type {
    pub header: cellhost_header,
    pub type_id: *const c_char,
    pub display_name: *const c_char,
    pub properties: *const cellhost_property,
    pub property_count: u32,
    pub actions: *const cellhost_action,
    pub action_count: u32,
    pub make_default: Option<unsafe extern "C" fn(type_: *const cellhost_config_type) -> *mut cellhost_config>,
    pub copy: Option<unsafe extern "C" fn(config: *const cellhost_config) -> *mut cellhost_config>,
    pub destroy: Option<unsafe extern "C" fn(config: *mut cellhost_config)>,
    pub equal: Option<unsafe extern "C" fn(a: *const cellhost_config, b: *const cellhost_config) -> bool>,
    pub updated_for_state: Option<
        unsafe extern "C" fn(config: *const cellhost_config, state: *const cellhost_state) -> *mut cellhost_config,
    >,
    pub is_customized:
        Option<unsafe extern "C" fn(config: *const cellhost_config, property_name: *const c_char) -> bool>,
    pub view_type: *const cellhost_view_type,
    pub update_configuration: Option<
        unsafe extern "C" fn(config: *const cellhost_config, state: *const cellhost_state) -> *mut cellhost_config,
    >,
    pub user_data: *mut c_void,
    pub flags: u32,
}

pub const CELLHOST_CONFIG_PURE_RESTYLE: u32 = 1;

#[repr(C)]
#[derive(Clone, Copy)]
pub struct cellhost_plugin_descriptor {
    pub header: cellhost_header,
    pub magic: u32,
    pub plugin_id: *const c_char,
    pub name: *const c_char,
    pub version: *const c_char,
    pub vendor: *const c_char,
    pub description: *const c_char,
    pub types: *const *const cellhost_config_type,
    pub type_count: u32,
    pub init: Option<unsafe extern "C" fn(host: *const cellhost_host) -> bool>,
    pub get_extension: Option<unsafe extern "C" fn(id: *const c_char) -> *const c_void>,
}

/// The signature of the one exported symbol, `cellhost_plugin_entry`.
pub type cellhost_plugin_entry_fn = Option<unsafe extern "C" fn() -> *const cellhost_plugin_descriptor>;

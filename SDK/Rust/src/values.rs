//! The value types of the ABI under Rust names, and read-only views of what the host passes in
//! (states, traits, layout contexts).

use crate::host::{str_from, Host};
use crate::sys::*;

pub type Color = cellhost_color;
pub type Size = cellhost_size;
pub type Insets = cellhost_insets;
pub type Point = cellhost_point;
pub type Rect = cellhost_rect;
pub type Font = cellhost_font;
pub type Traits = cellhost_traits;
pub type TextMetrics = cellhost_text_metrics;
pub type TextStyle = cellhost_text_style;
/// A colour transformer (`@T`): a plain C function pointer, None for no transformer.
pub type Transformer = cellhost_color_transformer;

impl Color {
    pub const fn rgba(red: f64, green: f64, blue: f64, alpha: f64) -> Color {
        Color { red, green, blue, alpha }
    }

    pub const fn with_alpha(self, alpha: f64) -> Color {
        Color { alpha, ..self }
    }

    /// This colour through `transformer` (itself when None).
    pub fn transformed(self, transformer: Transformer) -> Color {
        match transformer {
            // SAFETY: transformers the host hands out stay valid until the process ends.
            Some(function) => unsafe { function(self) },
            None => self,
        }
    }
}

impl Size {
    pub const fn new(width: f64, height: f64) -> Size {
        Size { width, height }
    }
}

impl Insets {
    pub const fn new(top: f64, leading: f64, bottom: f64, trailing: f64) -> Insets {
        Insets { top, leading, bottom, trailing }
    }
}

impl Rect {
    pub const fn new(x: f64, y: f64, width: f64, height: f64) -> Rect {
        Rect { x, y, width, height }
    }

    /// This rectangle with `insets` taken off its edges (leading is left: the host mirrors
    /// right-to-left layouts itself).
    pub fn inset_by(self, insets: Insets) -> Rect {
        Rect::new(
            self.x + insets.leading,
            self.y + insets.top,
            self.width - insets.leading - insets.trailing,
            self.height - insets.top - insets.bottom,
        )
    }
}

impl Traits {
    pub fn is_dark(&self) -> bool {
        self.user_interface_style == CELLHOST_STYLE_DARK
    }

    pub fn is_accessibility_size(&self) -> bool {
        self.content_size_category >= CELLHOST_CONTENT_SIZE_FIRST_ACCESSIBILITY
    }
}

/// A custom state's value (UIConfigurationStateCustomKey → value).
#[derive(Clone, Debug, PartialEq)]
pub enum CustomValue {
    Bool(bool),
    Int(i64),
    Double(f64),
    String(String),
}

impl CustomValue {
    /// Whether the value reads as "on": true, non-zero, or a non-empty string.
    pub fn is_on(&self) -> bool {
        match self {
            CustomValue::Bool(b) => *b,
            CustomValue::Int(i) => *i != 0,
            CustomValue::Double(d) => *d != 0.0,
            CustomValue::String(s) => !s.is_empty(),
        }
    }
}

/// A configuration state, valid during the call it was passed to.
#[derive(Clone, Copy)]
pub struct State<'a> {
    raw: &'a cellhost_state,
}

impl<'a> State<'a> {
    pub(crate) fn new(raw: &'a cellhost_state) -> Self {
        State { raw }
    }

    pub fn raw(&self) -> &'a cellhost_state {
        self.raw
    }

    /// `CELLHOST_STATE_*` bits.
    pub fn flags(&self) -> u32 {
        self.raw.flags
    }

    pub fn contains(&self, flag: u32) -> bool {
        self.raw.flags & flag != 0
    }

    pub fn is_highlighted(&self) -> bool {
        self.contains(CELLHOST_STATE_HIGHLIGHTED)
    }

    pub fn is_selected(&self) -> bool {
        self.contains(CELLHOST_STATE_SELECTED)
    }

    pub fn is_disabled(&self) -> bool {
        self.contains(CELLHOST_STATE_DISABLED)
    }

    pub fn is_cell(&self) -> bool {
        self.raw.kind == CELLHOST_STATE_KIND_CELL
    }

    pub fn traits(&self) -> &'a Traits {
        &self.raw.traits
    }

    /// The elevated level, Bold Text and the idiom (ABI 1.2); zero (base, regular, phone) when
    /// the state ends before them.
    pub fn extra_traits(&self) -> cellhost_extra_traits {
        let present = std::mem::offset_of!(cellhost_state, extra_traits) + std::mem::size_of::<cellhost_extra_traits>();
        if self.raw.header.struct_size as usize >= present { self.raw.extra_traits } else { Default::default() }
    }

    fn custom_states(&self) -> &'a [cellhost_custom_state] {
        if self.raw.custom_states.is_null() || self.raw.custom_state_count == 0 {
            return &[];
        }
        // SAFETY: the host passes `custom_state_count` entries, valid during the call.
        unsafe { std::slice::from_raw_parts(self.raw.custom_states, self.raw.custom_state_count as usize) }
    }

    /// The custom state named `key`, if the state has it.
    pub fn custom(&self, key: &str) -> Option<CustomValue> {
        self.custom_states().iter().find_map(|entry| {
            // SAFETY: keys and string values are NUL-terminated and valid during the call; the
            // union is read as its `kind` says.
            unsafe {
                if str_from(entry.key) != key {
                    return None;
                }
                Some(match entry.kind {
                    CELLHOST_VALUE_BOOL => CustomValue::Bool(entry.value.b),
                    CELLHOST_VALUE_INT => CustomValue::Int(entry.value.i),
                    CELLHOST_VALUE_DOUBLE => CustomValue::Double(entry.value.d),
                    _ => CustomValue::String(str_from(entry.value.s).into_owned()),
                })
            }
        })
    }

    /// Whether the custom state `key` is present and on.
    pub fn custom_is_on(&self, key: &str) -> bool {
        self.custom(key).is_some_and(|value| value.is_on())
    }
}

/// What a view lays out and draws with: traits and the host's text measurement. Valid during
/// the call it was passed to.
#[derive(Clone, Copy)]
pub struct Context<'a> {
    raw: &'a cellhost_context,
    host: Host,
}

/// A run of text: what to draw and how it wraps.
#[derive(Clone, Copy)]
pub struct Text<'s> {
    pub text: &'s str,
    pub font: Font,
    /// 0 = unlimited.
    pub number_of_lines: i32,
    /// 0 word wrap, 1 char wrap, 2 clip, 3 truncate head, 4 truncate tail, 5 truncate middle.
    pub line_break: i32,
}

impl<'s> Text<'s> {
    /// One line, truncated at the tail.
    pub fn line(text: &'s str, font: Font) -> Self {
        Text { text, font, number_of_lines: 1, line_break: 4 }
    }

    pub(crate) fn request(&self) -> cellhost_text_request {
        cellhost_text_request {
            header: cellhost_header::of::<cellhost_text_request>(),
            text: self.text.as_ptr().cast(),
            length: self.text.len(),
            font: self.font,
            number_of_lines: self.number_of_lines,
            line_break: self.line_break,
        }
    }
}

impl<'a> Context<'a> {
    pub(crate) fn new(raw: &'a cellhost_context, host: Host) -> Self {
        Context { raw, host }
    }

    pub fn raw(&self) -> &'a cellhost_context {
        self.raw
    }

    pub fn traits(&self) -> &'a Traits {
        &self.raw.traits
    }

    /// The elevated level, Bold Text and the idiom (ABI 1.2); zero (base, regular, phone) when
    /// the context ends before them.
    pub fn extra_traits(&self) -> cellhost_extra_traits {
        let present =
            std::mem::offset_of!(cellhost_context, extra_traits) + std::mem::size_of::<cellhost_extra_traits>();
        if self.raw.header.struct_size as usize >= present { self.raw.extra_traits } else { Default::default() }
    }

    pub fn host(&self) -> Host {
        self.host
    }

    /// The system font of `style` for these traits.
    pub fn font(&self, style: TextStyle) -> Font {
        self.host.default_font(Some(self.traits()), style)
    }

    /// A named system colour for these traits; `fallback` for an unknown name.
    pub fn system_color(&self, name: &str, fallback: Color) -> Color {
        self.host.system_color(Some(self.traits()), name).unwrap_or(fallback)
    }

    /// `text` measured with the host's fonts; `width` None means unconstrained.
    pub fn measure(&self, text: &Text, width: Option<f64>) -> TextMetrics {
        let request = text.request();
        let function = self.host.raw().measure_text.expect("a full services table has measure_text");
        // SAFETY: the context and request are valid for the call; the text outlives it.
        unsafe { function(self.raw, &request, width.unwrap_or(-1.0)) }
    }
}


//! Drawing through the host: each call records one drawing command in the drawing view's
//! coordinates. A canvas exists only during `draw`.

use crate::host::{c_string, Host};
use crate::sys::*;
use crate::values::{Color, Rect, Text};

pub struct Canvas<'a> {
    raw: *mut cellhost_canvas,
    host: Host,
    _call: std::marker::PhantomData<&'a mut cellhost_canvas>,
}

/// Horizontal alignment of text in its frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Alignment {
    Natural = 0,
    Left = 1,
    Center = 2,
    Right = 3,
    Justified = 4,
}

impl<'a> Canvas<'a> {
    pub(crate) fn new(raw: *mut cellhost_canvas, host: Host) -> Self {
        Canvas { raw, host, _call: std::marker::PhantomData }
    }

    pub fn raw(&mut self) -> *mut cellhost_canvas {
        self.raw
    }

    fn table(&self) -> &'static cellhost_host {
        self.host.raw()
    }

    pub fn fill(&mut self, rect: Rect, color: Color) {
        if let Some(f) = self.table().fill {
            unsafe { f(self.raw, rect, color) }
        }
    }

    pub fn rounded_rect(&mut self, rect: Rect, corner_radius: f64, color: Color) {
        if let Some(f) = self.table().rounded_rect {
            unsafe { f(self.raw, rect, corner_radius, color) }
        }
    }

    pub fn stroke(&mut self, rect: Rect, corner_radius: f64, width: f64, color: Color) {
        if let Some(f) = self.table().stroke {
            unsafe { f(self.raw, rect, corner_radius, width, color) }
        }
    }

    /// `text` inside `frame`, laid out with the rules `Context::measure` uses.
    pub fn text(&mut self, text: &Text, color: Color, frame: Rect, alignment: Alignment) {
        let run = cellhost_text_run {
            header: cellhost_header::of::<cellhost_text_run>(),
            text: text.request(),
            color,
            frame,
            alignment: alignment as i32,
        };
        if let Some(f) = self.table().text {
            unsafe { f(self.raw, &run) }
        }
    }

    /// An image symbol ("star.fill") in `frame`.
    pub fn symbol(&mut self, name: &str, frame: Rect, point_size: f64, weight: cellhost_font_weight, color: Color) {
        let name = c_string(name);
        if let Some(f) = self.table().symbol {
            unsafe { f(self.raw, name.as_ptr(), frame, point_size, weight, color) }
        }
    }

    /// A PNG file in `frame`, recoloured with `tint` when given.
    pub fn image(&mut self, png_path: &str, frame: Rect, mode: cellhost_content_mode, tint: Option<Color>) {
        let path = c_string(png_path);
        let tint_pointer = tint.as_ref().map_or(std::ptr::null(), |t| t as *const Color);
        if let Some(f) = self.table().image {
            unsafe { f(self.raw, path.as_ptr(), frame, mode, tint_pointer) }
        }
    }

    /// Runs `body` with drawing clipped to `rect` (rounded by `corner_radius`).
    pub fn clipped(&mut self, rect: Rect, corner_radius: f64, body: impl FnOnce(&mut Canvas<'a>)) {
        let table = self.table();
        if let Some(f) = table.push_clip {
            unsafe { f(self.raw, rect, corner_radius) }
        }
        body(self);
        if let Some(f) = table.pop_clip {
            unsafe { f(self.raw) }
        }
    }

    /// Runs `body` with everything it draws multiplied by `alpha`.
    pub fn with_alpha(&mut self, alpha: f64, body: impl FnOnce(&mut Canvas<'a>)) {
        let table = self.table();
        if let Some(f) = table.push_alpha {
            unsafe { f(self.raw, alpha) }
        }
        body(self);
        if let Some(f) = table.pop_alpha {
            unsafe { f(self.raw) }
        }
    }
}

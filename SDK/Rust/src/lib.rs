//! Writing cellhost plugins in Rust.
//!
//! [`sys`] holds `#[repr(C)]` bindings for everything `SDK/include/cellhost/plugin.h`
//! declares, checked field by field against the header by `cargo test`. The rest is a thin
//! safe layer: implement [`Configuration`] and [`ContentView`], describe properties with
//! [`Property`] and actions with [`Action`], draw through [`Canvas`], log with [`log`], and
//! export the plugin with [`export_plugin!`]. [`plugin_metadata!`] places what the plugin says
//! about itself in an ELF section that `cellhost inspect --no-load` reads without running it.
//!
//! No panic unwinds into the host: every function the layer hands to the host catches it,
//! logs it through the host and reports the call's failure (false, NULL or a default value, as
//! plugin.h allows for that call). Keep `panic = "unwind"` (the default) in the plugin's
//! profile: with `panic = "abort"` a panic ends the host's process instead.

mod boundary;
mod canvas;
mod configuration;
mod host;
mod members;
pub mod metadata;
mod plugin;
pub mod sys;
mod values;

pub use canvas::{Alignment, Canvas};
pub use configuration::{Configuration, ContentView};
pub use host::{log, Host, LogLevel};
pub use members::{Action, ActionResult, Locks, Property, Value};
pub use metadata::Metadata;
pub use plugin::{Descriptor, Plugin};
pub use values::{Color, Context, CustomValue, Font, Insets, Point, Rect, Size, State, Text, TextMetrics, TextStyle, Traits, Transformer};

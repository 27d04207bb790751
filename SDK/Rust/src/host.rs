//! The host services table handed to `init`, kept for the life of the process.

use crate::sys::*;
use crate::values::{Color, Font, Insets, TextStyle, Traits, Transformer};
use std::ffi::{c_char, CStr, CString};
use std::sync::atomic::{AtomicPtr, Ordering};

static HOST: AtomicPtr<cellhost_host> = AtomicPtr::new(std::ptr::null_mut());

/// A log message's level (`CELLHOST_LOG_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogLevel {
    Debug = CELLHOST_LOG_DEBUG as isize,
    Info = CELLHOST_LOG_INFO as isize,
    Warning = CELLHOST_LOG_WARNING as isize,
    Error = CELLHOST_LOG_ERROR as isize,
}

/// The host's services. Every function pointer is present: [`Host::install`] refuses a table
/// shorter than this crate's `cellhost_host`.
#[derive(Clone, Copy)]
pub struct Host {
    raw: &'static cellhost_host,
}

/// A NUL-terminated copy of `text`, cut at an interior NUL (C would stop reading there anyway).
pub(crate) fn c_string(text: &str) -> CString {
    let end = text.find('\0').unwrap_or(text.len());
    CString::new(&text[..end]).expect("no interior NUL after cutting")
}

/// The text of a C string the host owns; NULL reads as empty.
///
/// # Safety
/// `pointer` is NULL or a NUL-terminated string valid for `'a`.
pub(crate) unsafe fn str_from<'a>(pointer: *const c_char) -> std::borrow::Cow<'a, str> {
    if pointer.is_null() {
        "".into()
    } else {
        CStr::from_ptr(pointer).to_string_lossy()
    }
}

impl Host {
    /// Keeps the table `init` received. Refuses (false, logged) a table from another major ABI
    /// version or one too short to hold every service this crate calls.
    ///
    /// # Safety
    /// `raw` is the table the host passed to `init`, valid until the process ends.
    pub(crate) unsafe fn install(raw: *const cellhost_host) -> bool {
        let Some(table) = raw.as_ref() else { return false };
        let host = Host { raw: table };
        if table.header.abi_major != CELLHOST_ABI_MAJOR
            || (table.header.struct_size as usize) < std::mem::size_of::<cellhost_host>()
        {
            host.log(
                LogLevel::Error,
                &format!(
                    "the host's services table (ABI {}.{}, {} bytes) is not the {}.x table of {} bytes this plugin was built for",
                    table.header.abi_major,
                    table.header.abi_minor,
                    table.header.struct_size,
                    CELLHOST_ABI_MAJOR,
                    std::mem::size_of::<cellhost_host>()
                ),
            );
            return false;
        }
        HOST.store(raw as *mut cellhost_host, Ordering::Release);
        true
    }

    /// The host, once `init` has run.
    pub fn get() -> Option<Host> {
        let raw = HOST.load(Ordering::Acquire);
        // SAFETY: only `install` stores, and only a table valid until the process ends.
        unsafe { raw.as_ref() }.map(|raw| Host { raw })
    }

    /// The raw table, for services the safe layer does not wrap (embedded list views).
    pub fn raw(&self) -> &'static cellhost_host {
        self.raw
    }

    pub fn name(&self) -> String {
        unsafe { str_from(self.raw.host_name) }.into_owned()
    }

    pub fn version(&self) -> String {
        unsafe { str_from(self.raw.host_version) }.into_owned()
    }

    /// Shown in the host's trace, tagged with the plugin. Any thread.
    pub fn log(&self, level: LogLevel, message: &str) {
        if let Some(log) = self.raw.log {
            let message = c_string(message);
            unsafe { log(level as i32, message.as_ptr()) }
        }
    }

    /// A named system colour ("systemBlue", "label", …) for `traits` (None: the default traits);
    /// None for an unknown name.
    pub fn system_color(&self, traits: Option<&Traits>, name: &str) -> Option<Color> {
        let function = self.raw.system_color?;
        let name = c_string(name);
        let mut out = Color::default();
        let traits = traits.map_or(std::ptr::null(), |t| t as *const Traits);
        unsafe { function(traits, name.as_ptr(), &mut out) }.then_some(out)
    }

    /// The system font of `style` for `traits` (None: the default traits).
    pub fn default_font(&self, traits: Option<&Traits>, style: TextStyle) -> Font {
        let traits = traits.map_or(std::ptr::null(), |t| t as *const Traits);
        let function = self.raw.default_font.expect("a full services table has default_font");
        unsafe { function(traits, style) }
    }

    pub fn default_layout_margins(&self, traits: Option<&Traits>) -> Insets {
        let traits = traits.map_or(std::ptr::null(), |t| t as *const Traits);
        let function = self.raw.default_layout_margins.expect("a full services table has default_layout_margins");
        unsafe { function(traits) }
    }

    /// A built-in colour transformer by name ("identity", "grayscale", "preferredTint",
    /// "monochromeTint", "pressed", "faded"); None when unknown.
    pub fn color_transformer(&self, name: &str) -> Transformer {
        let function = self.raw.color_transformer?;
        let name = c_string(name);
        unsafe { function(name.as_ptr()) }
    }

    /// `first` then `second`, as one host transformer.
    pub fn compose_color_transformers(&self, first: Transformer, second: Transformer) -> Transformer {
        let function = self.raw.compose_color_transformers?;
        unsafe { function(first, second) }
    }
}

/// Logs through the host (stderr before `init`), from anywhere in a plugin.
pub fn log(level: LogLevel, message: &str) {
    match Host::get() {
        Some(host) => host.log(level, message),
        None => eprintln!("cellhost plugin: {message}"),
    }
}

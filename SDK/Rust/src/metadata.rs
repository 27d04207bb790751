//! The plugin's metadata section (plugin.h, `CELLHOST_METADATA`): what the descriptor says about
//! the plugin, placed in the ELF section `.cellhost_metadata` at compile time, so
//! `cellhost inspect PATH --no-load` can show it without running any of the plugin's code.
//!
//! The record is plugin.h's format 1: one NUL-terminated JSON object whose first member,
//! `"cellhost-metadata"`, is the format version. It is built by `const fn`s, so the strings may
//! be any constants (the plugin's own `const`s, a type's `TYPE_ID`) and are escaped for JSON.

use crate::sys::{CELLHOST_ABI_MAJOR, CELLHOST_ABI_MINOR, CELLHOST_METADATA_FORMAT};

/// What [`plugin_metadata!`](crate::plugin_metadata) writes: the same strings the plugin's
/// [`Plugin`](crate::Plugin) holds (`cellhost validate` fails the plugin when they disagree).
#[derive(Clone, Copy)]
pub struct Metadata {
    id: &'static str,
    name: &'static str,
    version: &'static str,
    vendor: &'static str,
    description: &'static str,
    types: &'static [&'static str],
}

impl Metadata {
    /// The plugin's id, name, version and vendor, as given to [`Plugin::new`](crate::Plugin::new).
    pub const fn new(id: &'static str, name: &'static str, version: &'static str, vendor: &'static str) -> Self {
        Metadata { id, name, version, vendor, description: "", types: &[] }
    }

    /// The description given to [`Plugin::description`](crate::Plugin::description); none by default.
    pub const fn description(self, description: &'static str) -> Self {
        Metadata { description, ..self }
    }

    /// The type ids of the plugin's configuration types, in the order they are added.
    pub const fn types(self, types: &'static [&'static str]) -> Self {
        Metadata { types, ..self }
    }

    /// The record's length in bytes, its terminating NUL included.
    pub const fn length(&self) -> usize {
        self.encode::<0>().1
    }

    /// The record; `N` must be [`length`](Self::length).
    pub const fn bytes<const N: usize>(&self) -> [u8; N] {
        let (bytes, length) = self.encode::<N>();
        assert!(length == N, "the metadata array's length must be Metadata::length()");
        bytes
    }

    /// Writes the record into an array of `N` bytes (what does not fit is dropped) and returns
    /// the length it needs, so one pass sizes the array and the next fills it.
    const fn encode<const N: usize>(&self) -> ([u8; N], usize) {
        let w = Writer { out: [0u8; N], at: 0 };
        let w = w.raw("{\"cellhost-metadata\":").number(CELLHOST_METADATA_FORMAT);
        let w = w.raw(",\"id\":").text(self.id).raw(",\"name\":").text(self.name);
        let w = w.raw(",\"version\":").text(self.version).raw(",\"vendor\":").text(self.vendor);
        let w = w.raw(",\"description\":").text(self.description);
        let mut w = w.raw(",\"abi\":\"").number(CELLHOST_ABI_MAJOR).raw(".").number(CELLHOST_ABI_MINOR).raw("\",\"types\":[");
        let mut index = 0;
        while index < self.types.len() {
            if index > 0 {
                w = w.raw(",");
            }
            w = w.text(self.types[index]);
            index += 1;
        }
        let w = w.raw("]}").byte(0);
        (w.out, w.at)
    }
}

/// A cursor over a fixed array, passed by value: `const fn` in the crate's oldest supported
/// Rust cannot take `&mut`.
struct Writer<const N: usize> {
    out: [u8; N],
    at: usize,
}

impl<const N: usize> Writer<N> {
    const fn byte(mut self, byte: u8) -> Self {
        if self.at < N {
            self.out[self.at] = byte;
        }
        self.at += 1;
        self
    }

    const fn raw(mut self, text: &str) -> Self {
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            self = self.byte(bytes[i]);
            i += 1;
        }
        self
    }

    /// `text` as a JSON string: quoted, with `"`, `\` and control characters escaped.
    const fn text(mut self, text: &str) -> Self {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let bytes = text.as_bytes();
        self = self.byte(b'"');
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            if b == b'"' || b == b'\\' {
                self = self.byte(b'\\').byte(b);
            } else if b < 0x20 {
                self = self.raw("\\u00").byte(HEX[(b >> 4) as usize]).byte(HEX[(b & 15) as usize]);
            } else {
                self = self.byte(b);
            }
            i += 1;
        }
        self.byte(b'"')
    }

    const fn number(mut self, value: u16) -> Self {
        let mut divisor = 10_000;
        let mut started = false;
        while divisor > 0 {
            let digit = (value / divisor % 10) as u8;
            if digit != 0 || started || divisor == 1 {
                self = self.byte(b'0' + digit);
                started = true;
            }
            divisor /= 10;
        }
        self
    }
}

/// Places the plugin's [`Metadata`] in the `.cellhost_metadata` section
/// ([`CELLHOST_METADATA_SECTION`](crate::sys::CELLHOST_METADATA_SECTION); `link_section` takes a
/// literal only), built at compile time.
/// Write it once, beside [`export_plugin!`](crate::export_plugin):
///
/// ```ignore
/// cellhost_plugin::plugin_metadata!(Metadata::new(ID, NAME, VERSION, VENDOR).types(&[Rating::TYPE_ID]));
/// ```
#[macro_export]
macro_rules! plugin_metadata {
    ($metadata:expr) => {
        const _: () = {
            const METADATA: $crate::metadata::Metadata = $metadata;
            #[used]
            #[link_section = ".cellhost_metadata"]
            static CELLHOST_PLUGIN_METADATA: [u8; METADATA.length()] = METADATA.bytes();
        };
    };
}

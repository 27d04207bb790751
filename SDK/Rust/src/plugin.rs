//! The plugin descriptor and the one exported symbol.

use crate::boundary::guard;
use crate::configuration::{describe, Configuration};
use crate::host::Host;
use crate::members::static_c_string;
use crate::sys::*;
use std::sync::OnceLock;

/// A plugin's metadata and its configuration types, turned into the static descriptor
/// `cellhost_plugin_entry` returns.
pub struct Plugin {
    id: &'static str,
    name: &'static str,
    version: &'static str,
    vendor: &'static str,
    description: Option<&'static str>,
    types: Vec<*const cellhost_config_type>,
}

impl Plugin {
    /// `id` is reverse-DNS ("com.example.meters"); `version` is the plugin's own.
    pub fn new(id: &'static str, name: &'static str, version: &'static str, vendor: &'static str) -> Self {
        Plugin { id, name, version, vendor, description: None, types: Vec::new() }
    }

    pub fn description(mut self, description: &'static str) -> Self {
        self.description = Some(description);
        self
    }

    pub fn with_type<C: Configuration>(mut self) -> Self {
        self.types.push(describe::<C>());
        self
    }

    fn descriptor(self) -> *const cellhost_plugin_descriptor {
        let type_count = self.types.len() as u32;
        Box::leak(Box::new(cellhost_plugin_descriptor {
            header: cellhost_header::of::<cellhost_plugin_descriptor>(),
            magic: CELLHOST_DESCRIPTOR_MAGIC,
            plugin_id: static_c_string(self.id),
            name: static_c_string(self.name),
            version: static_c_string(self.version),
            vendor: static_c_string(self.vendor),
            description: self.description.map_or(std::ptr::null(), static_c_string),
            types: Box::leak(self.types.into_boxed_slice()).as_ptr(),
            type_count,
            init: Some(init),
            get_extension: None,
        }))
    }
}

unsafe extern "C" fn init(host: *const cellhost_host) -> bool {
    guard(&|| "init".to_string(), false, || Host::install(host))
}

/// The descriptor, built on the first call and the same pointer on every later one.
pub struct Descriptor(OnceLock<DescriptorPointer>);

struct DescriptorPointer(*const cellhost_plugin_descriptor);
// SAFETY: the descriptor is built once, never changed, and kept until the process ends.
unsafe impl Send for DescriptorPointer {}
unsafe impl Sync for DescriptorPointer {}

impl Descriptor {
    pub const fn new() -> Self {
        Descriptor(OnceLock::new())
    }

    /// What `cellhost_plugin_entry` returns: the descriptor `build` describes, or NULL (with a
    /// line on stderr) when building it panicked.
    pub fn get(&'static self, build: fn() -> Plugin) -> *const cellhost_plugin_descriptor {
        guard(&|| "cellhost_plugin_entry".to_string(), std::ptr::null(), || {
            self.0.get_or_init(|| DescriptorPointer(build().descriptor())).0
        })
    }
}

impl Default for Descriptor {
    fn default() -> Self {
        Self::new()
    }
}

/// Exports `cellhost_plugin_entry` returning the descriptor of the plugin the expression
/// builds (a [`Plugin`]); the expression runs once, on the first call.
///
/// ```ignore
/// cellhost_plugin::export_plugin!(Plugin::new("com.example.rating", "Ratings", "1.0.0", "Example").with_type::<Rating>());
/// ```
#[macro_export]
macro_rules! export_plugin {
    ($plugin:expr) => {
        #[no_mangle]
        pub extern "C" fn cellhost_plugin_entry() -> *const $crate::sys::cellhost_plugin_descriptor {
            static DESCRIPTOR: $crate::Descriptor = $crate::Descriptor::new();
            fn build() -> $crate::Plugin {
                $plugin
            }
            DESCRIPTOR.get(build)
        }
        /// The export has plugin.h's entry signature.
        const _: $crate::sys::cellhost_plugin_entry_fn = Some(cellhost_plugin_entry);
    };
}

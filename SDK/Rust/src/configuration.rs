//! A configuration type and its content view as Rust traits, and the C functions of
//! `cellhost_config_type` and `cellhost_view_type` that serve them.
//!
//! A configuration the host holds is a boxed [`Stored`]: the author's value, which properties
//! are locked, and the type's description. The layer keeps plugin.h's rules so the author does
//! not have to: a setter locks its property, `updated_for_state` keeps every locked value,
//! `equal` compares locks too, and the string a getter returns lives until the next call.

use crate::boundary::guard;
use crate::canvas::Canvas;
use crate::host::{c_string, str_from, Host};
use crate::members::{static_c_string, AccessorHeader, Action, Locks, Property};
use crate::sys::*;
use crate::values::{Context, Rect, Size, State};
use std::cell::RefCell;
use std::ffi::{c_char, CString};

/// A content configuration type (UIKit's UIContentConfiguration): a value type whose
/// properties and actions the host reaches by name.
pub trait Configuration: Clone + PartialEq + 'static {
    /// Reverse-DNS, unique across every loaded plugin: "com.example.rating".
    const TYPE_ID: &'static str;
    const DISPLAY_NAME: &'static str;
    /// The `CELLHOST_CONFIG_PURE_RESTYLE` promise: `updated_for_state` depends only on the set
    /// values and the state, and does nothing else.
    const PURE_RESTYLE: bool = false;

    type View: ContentView<Configuration = Self>;

    /// The properties, in the order `Locks` numbers them (at most 64).
    fn properties() -> Vec<Property<Self>>;

    fn actions() -> Vec<Action<Self>> {
        Vec::new()
    }

    /// A configuration with default values, nothing locked.
    fn make_default(host: &Host) -> Self;

    /// This configuration restyled for `state`. Locked properties are restored afterwards by
    /// the layer, so this may restyle every property.
    fn updated_for_state(&self, _state: &State, _host: &Host) -> Self {
        self.clone()
    }
}

/// The content view of a configuration type (UIKit's UIContentView). It keeps its own copy of
/// what it draws.
pub trait ContentView: Sized + 'static {
    type Configuration: Configuration;

    /// A view already showing `initial`.
    fn make(initial: &Self::Configuration) -> Self;

    /// Whether this view can show `candidate` (reused) or the host must make a new one.
    fn supports(&self, _candidate: &Self::Configuration) -> bool {
        true
    }

    fn set_configuration(&mut self, config: &Self::Configuration);

    /// Self-sizing: the size wanted at `target.width`.
    fn size_that_fits(&mut self, target: Size, context: &Context) -> Size;

    /// Draws into `canvas`, `bounds` at the origin.
    fn draw(&mut self, bounds: Rect, context: &Context, canvas: &mut Canvas);
}

/// What the layer knows about a type, built once and kept until the process ends.
pub(crate) struct TypeInfo<C> {
    pub(crate) raw: cellhost_config_type,
    names: Vec<CString>,
    carries: Vec<Box<dyn Fn(&C, &mut C)>>,
}

/// A configuration as the host holds it.
pub(crate) struct Stored<C: 'static> {
    pub(crate) value: C,
    pub(crate) locks: Locks,
    /// The string the last `*` getter returned; plugin.h keeps it valid until the next call.
    pub(crate) string_cache: RefCell<CString>,
    pub(crate) info: &'static TypeInfo<C>,
}

impl<C: Configuration> Stored<C> {
    fn boxed(value: C, locks: Locks, info: &'static TypeInfo<C>) -> *mut cellhost_config {
        Box::into_raw(Box::new(Stored { value, locks, string_cache: RefCell::new(CString::default()), info })).cast()
    }
}

/// # Safety
/// `config` came from this layer for type `C` and is alive.
pub(crate) unsafe fn stored<'a, C: Configuration>(config: *const cellhost_config) -> &'a Stored<C> {
    &*(config as *const Stored<C>)
}

/// # Safety
/// As [`stored`], and the host owns `config` alone during the call.
pub(crate) unsafe fn stored_mut<'a, C: Configuration>(config: *mut cellhost_config) -> &'a mut Stored<C> {
    &mut *(config as *mut Stored<C>)
}

fn host() -> Host {
    Host::get().expect("the host called init before any other call")
}

unsafe extern "C" fn make_default<C: Configuration>(type_: *const cellhost_config_type) -> *mut cellhost_config {
    guard(&|| format!("make_default of {}", C::TYPE_ID), std::ptr::null_mut(), || {
        let info = &*((*type_).user_data as *const TypeInfo<C>);
        Stored::boxed(C::make_default(&host()), Locks::default(), info)
    })
}

unsafe extern "C" fn copy<C: Configuration>(config: *const cellhost_config) -> *mut cellhost_config {
    guard(&|| format!("copy of {}", C::TYPE_ID), std::ptr::null_mut(), || {
        let stored = stored::<C>(config);
        Stored::boxed(stored.value.clone(), stored.locks, stored.info)
    })
}

unsafe extern "C" fn destroy<C: Configuration>(config: *mut cellhost_config) {
    if config.is_null() {
        return;
    }
    guard(&|| format!("destroy of {}", C::TYPE_ID), (), || drop(Box::from_raw(config as *mut Stored<C>)))
}

unsafe extern "C" fn equal<C: Configuration>(a: *const cellhost_config, b: *const cellhost_config) -> bool {
    guard(&|| format!("equal of {}", C::TYPE_ID), false, || {
        let (a, b) = (stored::<C>(a), stored::<C>(b));
        a.locks == b.locks && a.value == b.value
    })
}

unsafe extern "C" fn updated_for_state<C: Configuration>(
    config: *const cellhost_config,
    state: *const cellhost_state,
) -> *mut cellhost_config {
    guard(&|| format!("updated_for_state of {}", C::TYPE_ID), std::ptr::null_mut(), || {
        let stored = stored::<C>(config);
        let mut value = stored.value.updated_for_state(&State::new(&*state), &host());
        for (index, carry) in stored.info.carries.iter().enumerate() {
            if stored.locks.is_locked(index) {
                carry(&stored.value, &mut value);
            }
        }
        Stored::boxed(value, stored.locks, stored.info)
    })
}

unsafe extern "C" fn is_customized<C: Configuration>(config: *const cellhost_config, name: *const c_char) -> bool {
    guard(&|| format!("is_customized of {}", C::TYPE_ID), false, || {
        let stored = stored::<C>(config);
        let name = str_from(name);
        let index = stored.info.names.iter().position(|n| n.to_bytes() == name.as_bytes());
        index.is_some_and(|i| stored.locks.is_locked(i))
    })
}

unsafe fn view<'a, V: ContentView>(view: *const cellhost_view) -> &'a mut V {
    &mut *(view as *mut V)
}

unsafe extern "C" fn make_view<V: ContentView>(initial: *const cellhost_config) -> *mut cellhost_view {
    guard(&|| format!("the view's make of {}", V::Configuration::TYPE_ID), std::ptr::null_mut(), || {
        Box::into_raw(Box::new(V::make(&stored::<V::Configuration>(initial).value))).cast()
    })
}

unsafe extern "C" fn supports<V: ContentView>(v: *const cellhost_view, candidate: *const cellhost_config) -> bool {
    guard(&|| format!("the view's supports of {}", V::Configuration::TYPE_ID), false, || {
        view::<V>(v).supports(&stored::<V::Configuration>(candidate).value)
    })
}

unsafe extern "C" fn set_configuration<V: ContentView>(v: *mut cellhost_view, config: *const cellhost_config) {
    guard(&|| format!("the view's set_configuration of {}", V::Configuration::TYPE_ID), (), || {
        view::<V>(v).set_configuration(&stored::<V::Configuration>(config).value)
    })
}

unsafe extern "C" fn size_that_fits<V: ContentView>(
    v: *mut cellhost_view,
    target: cellhost_size,
    context: *const cellhost_context,
) -> cellhost_size {
    guard(&|| format!("the view's size_that_fits of {}", V::Configuration::TYPE_ID), Size::new(target.width, 0.0), || {
        view::<V>(v).size_that_fits(target, &Context::new(&*context, host()))
    })
}

unsafe extern "C" fn draw<V: ContentView>(
    v: *mut cellhost_view,
    bounds: cellhost_rect,
    context: *const cellhost_context,
    canvas: *mut cellhost_canvas,
) {
    guard(&|| format!("the view's draw of {}", V::Configuration::TYPE_ID), (), || {
        let host = host();
        view::<V>(v).draw(bounds, &Context::new(&*context, host), &mut Canvas::new(canvas, host))
    })
}

unsafe extern "C" fn destroy_view<V: ContentView>(v: *mut cellhost_view) {
    if v.is_null() {
        return;
    }
    guard(&|| format!("the view's destroy of {}", V::Configuration::TYPE_ID), (), || drop(Box::from_raw(v as *mut V)))
}

/// The C descriptor of `C`, built once and kept until the process ends.
pub(crate) fn describe<C: Configuration>() -> *const cellhost_config_type {
    let properties = C::properties();
    assert!(properties.len() <= 64, "{}: at most 64 properties (locks are one bit each)", C::TYPE_ID);
    let mut raw_properties = Vec::new();
    let mut names = Vec::new();
    let mut carries = Vec::new();
    for (index, property) in properties.into_iter().enumerate() {
        // SAFETY: every accessor starts with an AccessorHeader (repr(C)).
        unsafe { (*(property.accessor as *mut AccessorHeader)).index = index };
        raw_properties.push(cellhost_property {
            header: cellhost_header::of::<cellhost_property>(),
            name: static_c_string(property.name),
            encoding: static_c_string(property.encoding),
            getter: property.getter,
            setter: property.setter,
            user_data: property.accessor,
        });
        names.push(c_string(property.name));
        carries.push(property.carry);
    }
    let raw_actions: Vec<cellhost_action> = C::actions()
        .into_iter()
        .map(|action| cellhost_action {
            header: cellhost_header::of::<cellhost_action>(),
            name: static_c_string(action.name),
            encoding: static_c_string(&action.encoding),
            argument_names: action.argument_names.map_or(std::ptr::null(), static_c_string),
            function: action.function,
            user_data: action.accessor,
        })
        .collect();
    let view_type: &'static cellhost_view_type = Box::leak(Box::new(cellhost_view_type {
        header: cellhost_header::of::<cellhost_view_type>(),
        make: Some(make_view::<C::View>),
        supports: Some(supports::<C::View>),
        set_configuration: Some(set_configuration::<C::View>),
        size_that_fits: Some(size_that_fits::<C::View>),
        draw: Some(draw::<C::View>),
        destroy: Some(destroy_view::<C::View>),
    }));
    let property_count = raw_properties.len() as u32;
    let action_count = raw_actions.len() as u32;
    let info: &'static mut TypeInfo<C> = Box::leak(Box::new(TypeInfo {
        raw: cellhost_config_type {
            header: cellhost_header::of::<cellhost_config_type>(),
            type_id: static_c_string(C::TYPE_ID),
            display_name: static_c_string(C::DISPLAY_NAME),
            properties: Box::leak(raw_properties.into_boxed_slice()).as_ptr(),
            property_count,
            actions: if action_count == 0 { std::ptr::null() } else { Box::leak(raw_actions.into_boxed_slice()).as_ptr() },
            action_count,
            make_default: Some(make_default::<C>),
            copy: Some(copy::<C>),
            destroy: Some(destroy::<C>),
            equal: Some(equal::<C>),
            updated_for_state: Some(updated_for_state::<C>),
            is_customized: Some(is_customized::<C>),
            view_type,
            update_configuration: None,
            user_data: std::ptr::null_mut(),
            flags: if C::PURE_RESTYLE { CELLHOST_CONFIG_PURE_RESTYLE } else { 0 },
        },
        names,
        carries,
    }));
    info.raw.user_data = (info as *mut TypeInfo<C>).cast();
    &info.raw
}

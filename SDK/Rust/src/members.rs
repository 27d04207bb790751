//! Properties and actions: typed Rust functions behind the plain C functions the host calls
//! through libffi. Each property or action descriptor's `user_data` points at its typed
//! accessor, so one generic C function per value type serves every property of that type.

use crate::boundary::guard;
use crate::configuration::{stored, stored_mut, Configuration};
use crate::host::{c_string, log, str_from, LogLevel};
use crate::sys::*;
use crate::values::{Color, Insets, Size, Transformer};
use std::ffi::{c_char, c_void};

/// A value that crosses the ABI by value under one type encoding.
///
/// # Safety
/// `Self` has exactly the C representation of `ENCODING` in plugin.h's table.
pub unsafe trait Value: Copy + Default + 'static {
    const ENCODING: &'static str;
}

unsafe impl Value for bool {
    const ENCODING: &'static str = "B";
}
unsafe impl Value for i64 {
    const ENCODING: &'static str = "q";
}
unsafe impl Value for f64 {
    const ENCODING: &'static str = "d";
}
unsafe impl Value for Color {
    const ENCODING: &'static str = "{Color=dddd}";
}
unsafe impl Value for Size {
    const ENCODING: &'static str = "{Size=dd}";
}
unsafe impl Value for Insets {
    const ENCODING: &'static str = "{Insets=dddd}";
}
unsafe impl Value for Transformer {
    const ENCODING: &'static str = "@T";
}

/// Which properties were set explicitly ("locked"), by their position in
/// [`Configuration::properties`]. The safe layer locks a property when its setter runs and keeps
/// locked values through `updated_for_state`; an action locks or unlocks what it changes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Locks {
    pub(crate) bits: u64,
}

impl Locks {
    pub fn is_locked(&self, index: usize) -> bool {
        index < 64 && self.bits & (1 << index) != 0
    }

    pub fn lock(&mut self, index: usize) {
        if index < 64 {
            self.bits |= 1 << index
        }
    }

    pub fn unlock(&mut self, index: usize) {
        if index < 64 {
            self.bits &= !(1 << index)
        }
    }
}

/// One property of a configuration type: a name, an encoding, and the typed functions behind
/// its C getter and setter.
pub struct Property<C> {
    pub(crate) name: &'static str,
    pub(crate) encoding: &'static str,
    pub(crate) getter: cellhost_fn,
    pub(crate) setter: cellhost_fn,
    pub(crate) accessor: *mut c_void,
    /// Copies this property's value from one configuration to another (keeps a locked value
    /// through a restyle).
    pub(crate) carry: Box<dyn Fn(&C, &mut C)>,
}

/// The first field of every property accessor: where the property sits in its type, set when
/// the type is built (the host may pass back a copy of the descriptor, so the position is not
/// read from the pointer).
#[repr(C)]
pub(crate) struct AccessorHeader {
    pub(crate) index: usize,
    pub(crate) name: &'static str,
}

#[repr(C)]
struct ValueAccessor<C, V> {
    header: AccessorHeader,
    get: fn(&C) -> V,
    set: Option<fn(&mut C, V)>,
}

#[repr(C)]
struct StringAccessor<C> {
    header: AccessorHeader,
    get: fn(&C) -> &str,
    set: Option<fn(&mut C, &str)>,
}

unsafe extern "C" fn get_value<C: Configuration, V: Value>(config: *const cellhost_config, property: *const cellhost_property) -> V {
    let accessor = &*((*property).user_data as *const ValueAccessor<C, V>);
    guard(&|| format!("the getter of `{}`", accessor.header.name), V::default(), || (accessor.get)(&stored::<C>(config).value))
}

unsafe extern "C" fn set_value<C: Configuration, V: Value>(
    config: *mut cellhost_config,
    property: *const cellhost_property,
    value: V,
) {
    let accessor = &*((*property).user_data as *const ValueAccessor<C, V>);
    guard(&|| format!("the setter of `{}`", accessor.header.name), (), || {
        let stored = stored_mut::<C>(config);
        if let Some(set) = accessor.set {
            set(&mut stored.value, value);
            stored.locks.lock(accessor.header.index);
        }
    })
}

unsafe extern "C" fn get_string<C: Configuration>(config: *const cellhost_config, property: *const cellhost_property) -> *const c_char {
    let accessor = &*((*property).user_data as *const StringAccessor<C>);
    static EMPTY: &[u8] = b"\0";
    guard(&|| format!("the getter of `{}`", accessor.header.name), EMPTY.as_ptr().cast(), || {
        let stored = stored::<C>(config);
        let text = c_string((accessor.get)(&stored.value));
        let mut cache = stored.string_cache.borrow_mut();
        *cache = text;
        cache.as_ptr()
    })
}

unsafe extern "C" fn set_string<C: Configuration>(
    config: *mut cellhost_config,
    property: *const cellhost_property,
    value: *const c_char,
) {
    let accessor = &*((*property).user_data as *const StringAccessor<C>);
    guard(&|| format!("the setter of `{}`", accessor.header.name), (), || {
        let stored = stored_mut::<C>(config);
        if let Some(set) = accessor.set {
            set(&mut stored.value, &str_from(value));
            stored.locks.lock(accessor.header.index);
        }
    })
}

impl<C: Configuration> Property<C> {
    /// A property of a by-value type (bool, i64, f64, Color, Size, Insets, Transformer);
    /// `set` None makes it read-only.
    pub fn new<V: Value>(name: &'static str, get: fn(&C) -> V, set: Option<fn(&mut C, V)>) -> Self {
        let getter: unsafe extern "C" fn(*const cellhost_config, *const cellhost_property) -> V = get_value::<C, V>;
        let setter: unsafe extern "C" fn(*mut cellhost_config, *const cellhost_property, V) = set_value::<C, V>;
        Property {
            name,
            encoding: V::ENCODING,
            // SAFETY: the host calls these back with the signature V::ENCODING describes.
            getter: unsafe { std::mem::transmute::<_, cellhost_fn>(getter) },
            setter: set.map(|_| unsafe { std::mem::transmute::<_, unsafe extern "C" fn()>(setter) }),
            accessor: Box::into_raw(Box::new(ValueAccessor { header: AccessorHeader { index: 0, name }, get, set })).cast(),
            carry: Box::new(move |from: &C, to: &mut C| {
                if let Some(set) = set {
                    set(to, get(from))
                }
            }),
        }
    }

    /// A UTF-8 string property (`*`); the layer keeps the NUL-terminated copy the host reads.
    pub fn string(name: &'static str, get: fn(&C) -> &str, set: Option<fn(&mut C, &str)>) -> Self {
        let getter: unsafe extern "C" fn(*const cellhost_config, *const cellhost_property) -> *const c_char =
            get_string::<C>;
        let setter: unsafe extern "C" fn(*mut cellhost_config, *const cellhost_property, *const c_char) =
            set_string::<C>;
        Property {
            name,
            encoding: "*",
            getter: unsafe { std::mem::transmute::<_, cellhost_fn>(getter) },
            setter: set.map(|_| unsafe { std::mem::transmute::<_, unsafe extern "C" fn()>(setter) }),
            accessor: Box::into_raw(Box::new(StringAccessor { header: AccessorHeader { index: 0, name }, get, set })).cast(),
            carry: Box::new(move |from: &C, to: &mut C| {
                if let Some(set) = set {
                    let value = get(from).to_string();
                    set(to, &value)
                }
            }),
        }
    }
}

/// What an action does: changes the configuration (locking what it sets) or refuses its
/// arguments with a sentence, which the layer logs as a warning before returning false.
pub type ActionResult = Result<(), String>;

/// One action of a configuration type, with up to two arguments.
pub struct Action<C> {
    pub(crate) name: &'static str,
    pub(crate) encoding: String,
    pub(crate) argument_names: Option<&'static str>,
    pub(crate) function: cellhost_fn,
    pub(crate) accessor: *mut c_void,
    _type: std::marker::PhantomData<C>,
}

struct ActionAccessor<F> {
    name: &'static str,
    body: F,
}

type Body0<C> = fn(&mut C, &mut Locks) -> ActionResult;
type Body1<C, A> = fn(&mut C, &mut Locks, A) -> ActionResult;
type Body2<C, A, B> = fn(&mut C, &mut Locks, A, B) -> ActionResult;

/// Runs an action's body on the configuration; a refusal or a panic is false.
unsafe fn perform<C: Configuration>(
    config: *mut cellhost_config,
    name: &'static str,
    body: impl FnOnce(&mut C, &mut Locks) -> ActionResult,
) -> bool {
    guard(&|| format!("the action `{name}`"), false, || {
        let stored = stored_mut::<C>(config);
        match body(&mut stored.value, &mut stored.locks) {
            Ok(()) => true,
            Err(reason) => {
                log(LogLevel::Warning, &format!("{name}: {reason}"));
                false
            }
        }
    })
}

unsafe extern "C" fn act0<C: Configuration>(config: *mut cellhost_config, action: *const cellhost_action) -> bool {
    let accessor = &*((*action).user_data as *const ActionAccessor<Body0<C>>);
    perform::<C>(config, accessor.name, |c, locks| (accessor.body)(c, locks))
}

unsafe extern "C" fn act1<C: Configuration, A: Value>(config: *mut cellhost_config, action: *const cellhost_action, a: A) -> bool {
    let accessor = &*((*action).user_data as *const ActionAccessor<Body1<C, A>>);
    perform::<C>(config, accessor.name, |c, locks| (accessor.body)(c, locks, a))
}

unsafe extern "C" fn act2<C: Configuration, A: Value, B: Value>(
    config: *mut cellhost_config,
    action: *const cellhost_action,
    a: A,
    b: B,
) -> bool {
    let accessor = &*((*action).user_data as *const ActionAccessor<Body2<C, A, B>>);
    perform::<C>(config, accessor.name, |c, locks| (accessor.body)(c, locks, a, b))
}

impl<C: Configuration> Action<C> {
    fn make<F: 'static>(name: &'static str, encoding: String, argument_names: Option<&'static str>, function: cellhost_fn, body: F) -> Self {
        Action {
            name,
            encoding,
            argument_names,
            function,
            accessor: Box::into_raw(Box::new(ActionAccessor { name, body })).cast(),
            _type: std::marker::PhantomData,
        }
    }

    /// An action without arguments.
    pub fn new(name: &'static str, body: Body0<C>) -> Self {
        let function: unsafe extern "C" fn(*mut cellhost_config, *const cellhost_action) -> bool = act0::<C>;
        Self::make(name, String::new(), None, unsafe { std::mem::transmute::<_, cellhost_fn>(function) }, body)
    }

    /// An action with one argument named `argument`.
    pub fn with_argument<A: Value>(name: &'static str, argument: &'static str, body: Body1<C, A>) -> Self {
        let function: unsafe extern "C" fn(*mut cellhost_config, *const cellhost_action, A) -> bool = act1::<C, A>;
        Self::make(name, A::ENCODING.to_string(), Some(argument), unsafe { std::mem::transmute::<_, cellhost_fn>(function) }, body)
    }

    /// An action with two arguments; `arguments` names them, comma-separated ("by,animated").
    pub fn with_arguments<A: Value, B: Value>(name: &'static str, arguments: &'static str, body: Body2<C, A, B>) -> Self {
        let function: unsafe extern "C" fn(*mut cellhost_config, *const cellhost_action, A, B) -> bool = act2::<C, A, B>;
        let encoding = format!("{}{}", A::ENCODING, B::ENCODING);
        Self::make(name, encoding, Some(arguments), unsafe { std::mem::transmute::<_, cellhost_fn>(function) }, body)
    }
}

/// A NUL-terminated copy that lives until the process ends, for descriptor strings.
pub(crate) fn static_c_string(text: &str) -> *const c_char {
    Box::leak(c_string(text).into_boxed_c_str()).as_ptr()
}


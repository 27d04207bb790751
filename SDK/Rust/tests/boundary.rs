//! The safe layer as the host sees it: the exported descriptor, called through its C function
//! pointers with a services table whose `log` is recorded. A panic in any author code comes back
//! as the call's failure value and a logged line, never as an unwind; a setter locks its
//! property and a restyle keeps locked values.

use cellhost_plugin::sys::*;
use cellhost_plugin::*;
use std::ffi::{c_char, CStr};
use std::sync::{Mutex, OnceLock};

#[derive(Clone, PartialEq)]
struct Fuse {
    length: i64,
    colour: Color,
}

impl Configuration for Fuse {
    const TYPE_ID: &'static str = "com.example.fuse";
    const DISPLAY_NAME: &'static str = "Fuse";
    type View = FuseView;

    fn properties() -> Vec<Property<Self>> {
        vec![
            Property::new(
                "length",
                |c: &Fuse| if c.length == 99 { panic!("getter lit") } else { c.length },
                Some(|c: &mut Fuse, v: i64| if v == 13 { panic!("setter lit at {v}") } else { c.length = v }),
            ),
            Property::new("colour", |c: &Fuse| c.colour, Some(|c, v| c.colour = v)),
        ]
    }

    fn actions() -> Vec<Action<Self>> {
        vec![
            Action::new("explode", |_, _| panic!("boom")),
            Action::with_arguments("refuse", "a,b", |_, _, a: f64, b: bool| Err(format!("not with {a} and {b}"))),
        ]
    }

    fn make_default(_: &Host) -> Self {
        Fuse { length: 1, colour: Color::rgba(0.0, 0.0, 0.0, 1.0) }
    }

    fn updated_for_state(&self, state: &State, _: &Host) -> Self {
        let grey = if state.is_selected() { 0.5 } else { 0.0 };
        Fuse { length: self.length + 100, colour: Color::rgba(grey, grey, grey, 1.0) }
    }
}

struct FuseView;

impl ContentView for FuseView {
    type Configuration = Fuse;
    fn make(_: &Fuse) -> Self {
        FuseView
    }
    fn set_configuration(&mut self, _: &Fuse) {}
    fn size_that_fits(&mut self, _: Size, _: &Context) -> Size {
        panic!("no size")
    }
    fn draw(&mut self, _: Rect, _: &Context, _: &mut Canvas) {
        panic!("no drawing")
    }
}

export_plugin!(Plugin::new("com.example.fuses", "Fuses", "1.0.0", "Example").with_type::<Fuse>());

static LOG: Mutex<Vec<String>> = Mutex::new(Vec::new());

unsafe extern "C" fn record(level: i32, message: *const c_char) {
    LOG.lock().unwrap().push(format!("{level} {}", CStr::from_ptr(message).to_string_lossy()));
}

fn logged_since(start: usize) -> Vec<String> {
    LOG.lock().unwrap()[start..].to_vec()
}

struct Loaded {
    descriptor: &'static cellhost_plugin_descriptor,
    fuse: &'static cellhost_config_type,
}
unsafe impl Sync for Loaded {}
unsafe impl Send for Loaded {}

/// The plugin loaded as the host loads it: entry, then init with a services table.
fn loaded() -> &'static Loaded {
    static LOADED: OnceLock<Loaded> = OnceLock::new();
    LOADED.get_or_init(|| unsafe {
        let mut table: cellhost_host = std::mem::zeroed();
        table.header = cellhost_header::of::<cellhost_host>();
        table.log = Some(record);
        let table: &'static cellhost_host = Box::leak(Box::new(table));
        let descriptor = &*cellhost_plugin_entry();
        assert!(descriptor.init.unwrap()(table));
        Loaded { descriptor, fuse: &**descriptor.types }
    })
}

fn property(name: &str) -> &'static cellhost_property {
    let t = loaded().fuse;
    let all = unsafe { std::slice::from_raw_parts(t.properties, t.property_count as usize) };
    all.iter().find(|p| unsafe { CStr::from_ptr(p.name) }.to_str() == Ok(name)).unwrap()
}

fn action(name: &str) -> &'static cellhost_action {
    let t = loaded().fuse;
    let all = unsafe { std::slice::from_raw_parts(t.actions, t.action_count as usize) };
    all.iter().find(|a| unsafe { CStr::from_ptr(a.name) }.to_str() == Ok(name)).unwrap()
}

type GetInt = unsafe extern "C" fn(*const cellhost_config, *const cellhost_property) -> i64;
type SetInt = unsafe extern "C" fn(*mut cellhost_config, *const cellhost_property, i64);

fn new_config() -> *mut cellhost_config {
    let t = loaded().fuse;
    unsafe { t.make_default.unwrap()(t) }
}

fn set_length(config: *mut cellhost_config, value: i64) {
    let p = property("length");
    unsafe { std::mem::transmute::<_, SetInt>(p.setter.unwrap())(config, p, value) }
}

fn get_length(config: *const cellhost_config) -> i64 {
    let p = property("length");
    unsafe { std::mem::transmute::<_, GetInt>(p.getter.unwrap())(config, p) }
}

fn state(flags: u32) -> cellhost_state {
    let mut state: cellhost_state = unsafe { std::mem::zeroed() };
    state.header = cellhost_header::of::<cellhost_state>();
    state.flags = flags;
    state
}

#[test]
fn the_descriptor_is_one_static_value_with_the_described_members() {
    let first = cellhost_plugin_entry();
    assert_eq!(first, cellhost_plugin_entry());
    let d = loaded().descriptor;
    assert_eq!(d.magic, CELLHOST_DESCRIPTOR_MAGIC);
    assert_eq!(unsafe { CStr::from_ptr(d.plugin_id) }.to_str(), Ok("com.example.fuses"));
    assert_eq!(unsafe { CStr::from_ptr(property("colour").encoding) }.to_str(), Ok("{Color=dddd}"));
    assert_eq!(unsafe { CStr::from_ptr(action("refuse").encoding) }.to_str(), Ok("dB"));
    assert_eq!(unsafe { CStr::from_ptr(action("refuse").argument_names) }.to_str(), Ok("a,b"));
    assert!(action("explode").argument_names.is_null());
}

#[test]
fn a_panicking_setter_returns_and_logs_an_error() {
    let config = new_config();
    let start = LOG.lock().unwrap().len();
    set_length(config, 13);
    assert_eq!(get_length(config), 1, "the panicking setter changed nothing");
    let logged = logged_since(start);
    assert!(logged.iter().any(|l| l.starts_with("3 panicked in the setter of `length`: setter lit at 13")), "{logged:?}");
    unsafe { loaded().fuse.destroy.unwrap()(config) };
}

#[test]
fn a_panicking_getter_returns_the_default_value() {
    let config = new_config();
    set_length(config, 99);
    let start = LOG.lock().unwrap().len();
    assert_eq!(get_length(config), 0);
    assert!(logged_since(start).iter().any(|l| l.contains("panicked in the getter of `length`: getter lit")));
    unsafe { loaded().fuse.destroy.unwrap()(config) };
}

#[test]
fn a_panicking_action_is_a_refusal_and_a_refusal_is_logged() {
    let config = new_config();
    let start = LOG.lock().unwrap().len();
    let explode = action("explode");
    let run: unsafe extern "C" fn(*mut cellhost_config, *const cellhost_action) -> bool =
        unsafe { std::mem::transmute(explode.function.unwrap()) };
    assert!(!unsafe { run(config, explode) });
    let refuse = action("refuse");
    let run: unsafe extern "C" fn(*mut cellhost_config, *const cellhost_action, f64, bool) -> bool =
        unsafe { std::mem::transmute(refuse.function.unwrap()) };
    assert!(!unsafe { run(config, refuse, 2.5, true) });
    let logged = logged_since(start);
    assert!(logged.iter().any(|l| l.starts_with("3 panicked in the action `explode`: boom")), "{logged:?}");
    assert!(logged.iter().any(|l| l == "2 refuse: not with 2.5 and true"), "{logged:?}");
    unsafe { loaded().fuse.destroy.unwrap()(config) };
}

#[test]
fn a_panicking_view_sizes_to_zero_height_and_draws_nothing() {
    let config = new_config();
    let t = loaded().fuse;
    let view_type = unsafe { &*t.view_type };
    let view = unsafe { view_type.make.unwrap()(config) };
    assert!(!view.is_null());
    let mut context: cellhost_context = unsafe { std::mem::zeroed() };
    context.header = cellhost_header::of::<cellhost_context>();
    let start = LOG.lock().unwrap().len();
    let size = unsafe { view_type.size_that_fits.unwrap()(view, Size::new(320.0, 44.0), &context) };
    assert_eq!(size, Size::new(320.0, 0.0));
    unsafe { view_type.draw.unwrap()(view, Rect::new(0.0, 0.0, 320.0, 44.0), &context, std::ptr::null_mut()) };
    let logged = logged_since(start);
    assert!(logged.iter().any(|l| l.contains("panicked in the view's size_that_fits of com.example.fuse: no size")));
    assert!(logged.iter().any(|l| l.contains("panicked in the view's draw of com.example.fuse: no drawing")));
    unsafe {
        view_type.destroy.unwrap()(view);
        t.destroy.unwrap()(config);
    }
}

#[test]
fn a_setter_locks_its_property_and_a_restyle_keeps_the_locked_value() {
    let t = loaded().fuse;
    let config = new_config();
    let name = c"length";
    assert!(!unsafe { t.is_customized.unwrap()(config, name.as_ptr()) });
    let restyled = unsafe { t.updated_for_state.unwrap()(config, &state(CELLHOST_STATE_SELECTED)) };
    assert_eq!(get_length(restyled), 101, "an unlocked property follows the restyle");
    set_length(config, 7);
    assert!(unsafe { t.is_customized.unwrap()(config, name.as_ptr()) });
    let locked = unsafe { t.updated_for_state.unwrap()(config, &state(CELLHOST_STATE_SELECTED)) };
    assert_eq!(get_length(locked), 7, "a locked property keeps its value");
    assert!(unsafe { t.is_customized.unwrap()(locked, name.as_ptr()) });
    let copy = unsafe { t.copy.unwrap()(config) };
    assert!(unsafe { t.equal.unwrap()(config, copy) });
    assert!(!unsafe { t.equal.unwrap()(config, locked) }, "the restyle changed the colour");
    for c in [config, restyled, locked, copy] {
        unsafe { t.destroy.unwrap()(c) };
    }
}

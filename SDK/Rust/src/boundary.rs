//! The boundary with the host: no panic unwinds through an `extern "C"` function of this crate.
//! Every function the crate hands to the host runs its body through [`guard`], which catches a
//! panic, logs it through the host's log service (stderr before `init`) and returns the call's
//! failure value from the ABI: false for `init`, actions, `equal` and `supports`, NULL for
//! constructors and `copy`, a default value for getters, nothing for the rest.

use crate::host::{Host, LogLevel};
use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Runs `body`; a panic becomes `failure`, and a log line naming `call` and the panic message.
pub(crate) fn guard<T>(call: &dyn Fn() -> String, failure: T, body: impl FnOnce() -> T) -> T {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(value) => value,
        Err(payload) => {
            report(&call(), payload.as_ref());
            failure
        }
    }
}

fn report(call: &str, payload: &(dyn Any + Send)) {
    let message = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_string());
    let line = format!("panicked in {call}: {message}; the call reports failure to the host");
    match Host::get() {
        Some(host) => host.log(LogLevel::Error, &line),
        None => eprintln!("cellhost plugin: {line}"),
    }
}

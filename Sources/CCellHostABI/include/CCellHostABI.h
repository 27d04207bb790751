/* The host's side of the plugin ABI for Swift code (CellPlugins, CellValidation): the SDK's C
 * module (plugin.h, re-exported, so host and SDK share one set of C types) and the loader's
 * memory probe, which no plugin links. */
#include "CellHostPluginABI.h"

#include <stddef.h>

/* Copies `length` bytes at `address` into `out` if that memory is mapped and readable, and
 * returns 0; returns -1 otherwise. Lets the loader tell a garbage descriptor pointer from a real
 * one without faulting. */
int cellhost_probe_read(const void *address, void *out, size_t length);

/* The plugin view call running on this thread: the canvas and context the host handed it, the
 * plugin type it belongs to (an unretained PluginConfigurationType), and whether a value the
 * plugin handed back was refused. All NULL / 0 outside such a call. Thread-local, so a canvas or
 * context used from a plugin's own thread, or after the call returned, matches nothing here and
 * is refused instead of being dereferenced. */
typedef struct cellhost_active_call {
    const void *canvas;
    const void *context;
    const void *owner;
    int fault_pending;
    /* The traits and the ABI 1.2 extra traits of the state or context handed to the running call,
     * when the plugin was built against 1.2 or later; both NULL otherwise. Host services that
     * take a `const cellhost_traits *` answer for these extra traits when handed traits equal to
     * `traits` (plugin.h's services cannot carry the extra traits themselves). */
    const cellhost_traits *traits;
    const cellhost_extra_traits *extra_traits;
} cellhost_active_call;

/* This thread's slot; never NULL. */
cellhost_active_call *cellhost_active_call_slot(void);

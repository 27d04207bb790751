/* Layout checks of the by-value types whose layout the type encodings promise, and the loader's
 * memory probe. */
#define _GNU_SOURCE
#include "CCellHostABI.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

_Static_assert(sizeof(cellhost_color) == 32, "{Color=dddd} is four doubles");
_Static_assert(sizeof(cellhost_size) == 16, "{Size=dd} is two doubles");
_Static_assert(sizeof(cellhost_insets) == 32, "{Insets=dddd} is four doubles");
_Static_assert(sizeof(bool) == 1, "B is one byte");
_Static_assert(sizeof(cellhost_header) == 8, "the header is size + major + minor");
/* ABI 1.2 appended extra_traits; everything a 1.1 plugin reads stays where 1.1 put it. */
_Static_assert(sizeof(cellhost_traits) == 48, "cellhost_traits keeps its 1.1 size (it is embedded)");
_Static_assert(offsetof(cellhost_state, traits) == 24 && offsetof(cellhost_state, custom_states) == 72
               && offsetof(cellhost_state, custom_state_count) == 80, "cellhost_state keeps its 1.1 fields in place");
_Static_assert(offsetof(cellhost_state, extra_traits) == 84, "extra_traits is appended after the 1.1 fields");
_Static_assert(offsetof(cellhost_context, host_data) == 56 && offsetof(cellhost_context, extra_traits) == 64,
               "cellhost_context keeps its 1.1 fields in place and appends extra_traits");

int cellhost_probe_read(const void *address, void *out, size_t length) {
    if (address == NULL) return -1;
    struct iovec local = { out, length };
    struct iovec remote = { (void *)address, length };
    ssize_t n = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
    if (n == (ssize_t)length) return 0;
    if (n < 0 && (errno == ENOSYS || errno == EPERM)) {
        /* process_vm_readv refused by the sandbox: fall back to a pipe, which reports EFAULT. */
        int fds[2];
        if (pipe(fds) != 0) return -1;
        int ok = write(fds[1], address, length) == (ssize_t)length && read(fds[0], out, length) == (ssize_t)length;
        close(fds[0]);
        close(fds[1]);
        return ok ? 0 : -1;
    }
    return -1;
}

static __thread cellhost_active_call active_call;

cellhost_active_call *cellhost_active_call_slot(void) { return &active_call; }

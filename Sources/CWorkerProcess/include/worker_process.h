#pragma once
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/// What a sandboxed worker may still do. Paths must be absolute and exist when the sandbox is
/// entered (Landlock rules are attached to open files, not to names).
typedef struct {
    const char *const *read_paths;
    size_t read_count;
    /// Read, create, replace and remove files below these.
    const char *const *write_paths;
    size_t write_count;
    /// The only files the worker may execute (the Swift runtime's crash backtracer).
    const char *const *execute_paths;
    size_t execute_count;
    /// The channel descriptor that refusals are reported on; -1 = none.
    int channel_fd;
    uint64_t memory_bytes;
    uint64_t cpu_seconds;
    uint64_t file_bytes;
    uint64_t open_files;
} cellhost_sandbox_policy;

/// Bits of `cellhost_sandbox_enter`'s result: the parts of the sandbox the kernel lacks.
enum {
    CELLHOST_SANDBOX_NO_SECCOMP = 1,
    CELLHOST_SANDBOX_NO_LANDLOCK = 2,
};

/// The Landlock ABI version the kernel offers, 0 when it has none.
int cellhost_landlock_abi(void);
/// Whether the kernel filters system calls with seccomp.
int cellhost_seccomp_available(void);

/// Enters the sandbox: no_new_privs, resource limits, Landlock, the seccomp filter, and the
/// handlers that report a refused call or an exhausted memory limit on the channel. Returns the
/// missing-part bits (>= 0), or -1 with `problem` filled when a part the kernel has failed.
int cellhost_sandbox_enter(const cellhost_sandbox_policy *policy, char *problem, size_t problem_size);

/// Asks the kernel to SIGKILL this process when its parent dies; if the parent is already not
/// `expected_parent` (it died before the request), exits at once. Returns 0.
int cellhost_die_with_parent(pid_t expected_parent);

/// Catches SIGINT, SIGTERM and SIGHUP until released: the first one received is remembered and
/// interrupts blocking calls (no SA_RESTART) instead of ending the process.
void cellhost_interrupts_catch(void);
void cellhost_interrupts_release(void);
/// The first interrupting signal received since the process started, 0 if none.
int cellhost_interrupt_received(void);

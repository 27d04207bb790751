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
    /// The socket the notification listener is handed to the supervisor on (with `write_paths`,
    /// which it answers by); -1 = none, and writes and executions are refused unreported.
    int listener_socket;
    /// The descriptor the host passes as the folder of `openat` and `mkdirat` when it writes its
    /// own outputs (absolute paths, so the folder is only a mark): those calls are never
    /// notified. -1 = none.
    int host_write_fd;
    uint64_t memory_bytes;
    uint64_t cpu_seconds;
    uint64_t file_bytes;
    uint64_t open_files;
} cellhost_sandbox_policy;

/// Bits of `cellhost_sandbox_enter`'s result: the parts of the sandbox the kernel lacks.
enum {
    CELLHOST_SANDBOX_NO_SECCOMP = 1,
    CELLHOST_SANDBOX_NO_LANDLOCK = 2,
    CELLHOST_SANDBOX_NO_NOTIFY = 4,
};

/// The Landlock ABI version the kernel offers, 0 when it has none.
int cellhost_landlock_abi(void);
/// Whether the kernel filters system calls with seccomp.
int cellhost_seccomp_available(void);

/// Whether the kernel and libseccomp let a supervisor answer a worker's system calls (user
/// notification with SECCOMP_USER_NOTIF_FLAG_CONTINUE).
int cellhost_seccomp_notify_available(void);

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

/// A system call the worker's notification filter stopped, as the supervisor receives it.
typedef struct {
    uint64_t id;
    int32_t pid;
    /// CELLHOST_NOTIFIED_RUN, _WRITE or _REMOVE (0: a call the filter does not notify).
    int32_t kind;
    /// The folder a relative path is resolved against: AT_FDCWD or a descriptor of `pid`.
    int32_t folder_fd;
    /// mkdir and mkdirat: the call writes only when the path does not exist yet.
    int32_t makes_folder;
    /// The address of the path in `pid`'s memory.
    uint64_t path_address;
} cellhost_notification;

enum { CELLHOST_NOTIFIED_RUN = 1, CELLHOST_NOTIFIED_WRITE = 2, CELLHOST_NOTIFIED_REMOVE = 3 };

/// Receives the listener descriptor the worker hands over on `socket` (-1 when none came, or the
/// socket closed), and the worker's writable folders, NUL-separated, into `paths`.
int cellhost_listener_receive(int socket, char *paths, size_t size, size_t *length);
/// Waits for the next notification on `listener`: 0, or -1 with errno set (ENOENT: the call went away).
int cellhost_notify_receive(int listener, cellhost_notification *notification);
/// Reads the NUL-terminated string at `address` in `pid` (at most size - 1 bytes): its length, or -1.
long cellhost_notify_read_string(int32_t pid, uint64_t address, char *buffer, size_t size);
/// Whether the notified call `id` is still waiting (so what was read belongs to it).
int cellhost_notify_id_valid(int listener, uint64_t id);
/// Answers the call `id`: carried on when `error` is 0 (Landlock still decides), else it fails with `error`.
int cellhost_notify_respond(int listener, uint64_t id, int error);

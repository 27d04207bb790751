// The kernel side of the worker sandbox: Landlock, the seccomp filter, resource limits and the
// handlers that tell the supervisor what a plugin tried. Written in C because the pieces are
// C interfaces (libseccomp, raw Landlock system calls) and the handlers run inside signal
// delivery, where only async-signal-safe code may run. Why each rule exists is said where the
// rule is added; WorkerSandbox.swift says which paths and limits a worker gets.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "worker_process.h"

// Rights newer than the oldest Landlock ABI, for headers that predate them.
#define FS_REFER (1ULL << 13)     // ABI 2
#define FS_TRUNCATE (1ULL << 14)  // ABI 3
#define FS_IOCTL_DEV (1ULL << 15) // ABI 5
#define SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0) // ABI 6
#define SCOPE_SIGNAL (1ULL << 1)               // ABI 6

/// The ruleset attribute as of ABI 6; older kernels are given the prefix they know.
struct ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;
    uint64_t scoped;
};

struct path_beneath {
    uint64_t allowed_access;
    int32_t parent_fd;
} __attribute__((packed));

#define FS_READ (LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR)
#define FS_FILE_RIGHTS (LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE \
                        | FS_TRUNCATE | FS_IOCTL_DEV)

/// Whether the tests asked to run as on a kernel without `feature` ("landlock", "seccomp" or
/// "notify", comma-separated in CELLHOST_TEST_KERNEL_WITHOUT): the fallbacks for older kernels
/// would otherwise never run on a machine that has every feature.
static int kernel_lacks(const char *feature) {
    const char *list = getenv("CELLHOST_TEST_KERNEL_WITHOUT");
    if (!list) return 0;
    size_t n = strlen(feature);
    for (const char *p = list; (p = strstr(p, feature)) != NULL; p += n)
        if ((p == list || p[-1] == ',') && (p[n] == 0 || p[n] == ',')) return 1;
    return 0;
}

int cellhost_landlock_abi(void) {
    if (kernel_lacks("landlock")) return 0;
#ifdef SYS_landlock_create_ruleset
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    return abi > 0 ? (int)abi : 0;
#else
    return 0;
#endif
}

int cellhost_seccomp_available(void) {
    if (kernel_lacks("seccomp")) return 0;
    // PR_GET_SECCOMP fails with EINVAL on a kernel built without seccomp.
    return prctl(PR_GET_SECCOMP, 0, 0, 0, 0) >= 0;
}

static uint64_t handled_fs_rights(int abi) {
    uint64_t rights = ((LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1); // every ABI 1 right
    if (abi >= 2) rights |= FS_REFER;
    if (abi >= 3) rights |= FS_TRUNCATE;
    if (abi >= 5) rights |= FS_IOCTL_DEV;
    return rights;
}

/// Allows `access` beneath `path`; a path that does not exist is skipped (a font folder the
/// machine lacks), and a file gets only the rights that apply to files.
static int allow_path(int ruleset, const char *path, uint64_t access, uint64_t handled, char *problem, size_t size) {
    int fd = open(path, O_PATH | O_CLOEXEC);
    if (fd < 0) return errno == ENOENT || errno == ENOTDIR || errno == EACCES ? 0 : (snprintf(problem, size, "cannot open %s for the sandbox rules: %s", path, strerror(errno)), -1);
    struct stat st;
    if (fstat(fd, &st) == 0 && !S_ISDIR(st.st_mode)) access &= FS_FILE_RIGHTS;
    struct path_beneath rule = { .allowed_access = access & handled, .parent_fd = fd };
    long added = syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
    int saved = errno;
    close(fd);
    if (added < 0) {
        snprintf(problem, size, "cannot add the sandbox rule for %s: %s", path, strerror(saved));
        return -1;
    }
    return 0;
}

static int enter_landlock(const cellhost_sandbox_policy *p, int abi, char *problem, size_t size) {
    uint64_t handled = handled_fs_rights(abi);
    struct ruleset_attr attr = { .handled_access_fs = handled };
    size_t attr_size = sizeof(uint64_t);
    if (abi >= 6) {
        // Signals and abstract sockets stay inside the sandbox: the kernel refuses a signal to
        // the supervisor even if the seccomp filter were bypassed.
        attr.scoped = SCOPE_SIGNAL | SCOPE_ABSTRACT_UNIX_SOCKET;
        attr_size = sizeof attr;
    }
    int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, attr_size, 0);
    if (ruleset < 0) {
        snprintf(problem, size, "cannot create the Landlock ruleset: %s", strerror(errno));
        return -1;
    }
    int failed = 0;
    for (size_t i = 0; !failed && i < p->read_count; i++)
        failed = allow_path(ruleset, p->read_paths[i], FS_READ, handled, problem, size);
    for (size_t i = 0; !failed && i < p->write_count; i++)
        failed = allow_path(ruleset, p->write_paths[i], handled & ~LANDLOCK_ACCESS_FS_EXECUTE, handled, problem, size);
    for (size_t i = 0; !failed && i < p->execute_count; i++)
        failed = allow_path(ruleset, p->execute_paths[i], FS_READ | LANDLOCK_ACCESS_FS_EXECUTE, handled, problem, size);
    if (!failed && syscall(SYS_landlock_restrict_self, ruleset, 0) < 0) {
        snprintf(problem, size, "cannot enter the Landlock ruleset: %s", strerror(errno));
        failed = -1;
    }
    close(ruleset);
    return failed;
}

// MARK: Reporting what a plugin tried

static int report_fd = -1;
static volatile sig_atomic_t reported = 0;

/// Writes one channel record naming what was refused; async-signal-safe, at most once.
static void report_refusal(const char *word) {
    if (report_fd < 0 || reported) return;
    reported = 1;
    char line[96] = "{\"record\":\"sandbox\",\"refused\":\"";
    size_t n = strlen(line), w = strlen(word);
    memcpy(line + n, word, w);
    memcpy(line + n + w, "\"}\n", 3);
    n += w + 3;
    for (size_t off = 0; off < n;) {
        ssize_t k = write(report_fd, line + off, n - off);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) break;
        off += (size_t)k;
    }
}

/// The word the supervisor turns into "the plugin tried to …".
static const char *refused_word(int nr) {
    switch (nr) {
    case SYS_socket: return "socket";
    case SYS_clone: case SYS_execve: case SYS_execveat:
#ifdef SYS_fork
    case SYS_fork:
#endif
#ifdef SYS_vfork
    case SYS_vfork:
#endif
        return "process";
    case SYS_kill: case SYS_tgkill: case SYS_tkill: case SYS_rt_sigqueueinfo: case SYS_rt_tgsigqueueinfo:
    case SYS_pidfd_open: case SYS_pidfd_send_signal: return "signal";
    case SYS_ptrace: case SYS_process_vm_writev: return "trace";
    case SYS_setsid: case SYS_setpgid: return "group";
    default: return "syscall";
    }
}

/// A refused call ends the worker: a plugin that was told "no" might otherwise carry on in a
/// state nobody planned for. The record goes out first, then SIGSYS ends the process.
static void on_refused_call(int sig, siginfo_t *info, void *context) {
    (void)context;
    report_refusal(refused_word(info->si_syscall));
    signal(sig, SIG_DFL);
    raise(sig);
}

static struct sigaction previous_fatal[NSIG];

/// A fatal signal while errno says ENOMEM is a failed allocation meeting the memory limit
/// (malloc returned NULL and was used, or the Swift runtime trapped on it). That is said on the
/// channel, then the signal goes on to the handler that was there before (the Swift runtime's
/// backtracer), so the crash report is the usual one.
static void on_fatal_signal(int sig, siginfo_t *info, void *context) {
    if (errno == ENOMEM) report_refusal("memory");
    struct sigaction previous = previous_fatal[sig];
    sigaction(sig, &previous, NULL);
    if (previous.sa_flags & SA_SIGINFO) {
        previous.sa_sigaction(sig, info, context);
    } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
        previous.sa_handler(sig);
    } else if (info->si_code <= 0) {
        raise(sig); // sent (abort), not a fault that re-occurs on return
    }
}

/// Installs `handler` for `sig` with the flags and mask of the handler it replaces: the Swift
/// runtime's crash handler runs with SA_NODEFER, and the thread it starts to serve the
/// backtracer inherits the signal mask, so a blocked SIGSEGV there would end the process.
static int install(int sig, void (*handler)(int, siginfo_t *, void *), struct sigaction *previous) {
    struct sigaction old;
    if (sigaction(sig, NULL, &old) != 0) return -1;
    if (previous) *previous = old;
    struct sigaction action = old;
    action.sa_sigaction = handler;
    action.sa_flags = (old.sa_handler == SIG_DFL || old.sa_handler == SIG_IGN ? 0 : old.sa_flags) | SA_SIGINFO | SA_ONSTACK;
    return sigaction(sig, &action, NULL);
}

// MARK: The seccomp filter

static int trap(scmp_filter_ctx ctx, int nr) { return seccomp_rule_add(ctx, SCMP_ACT_TRAP, nr, 0); }

/// Traps `nr` when its first argument (a process or thread group id) is not this process.
static int trap_unless_self(scmp_filter_ctx ctx, int nr, pid_t self) {
    return seccomp_rule_add(ctx, SCMP_ACT_TRAP, nr, 1, SCMP_A0(SCMP_CMP_NE, (scmp_datum_t)self));
}

static int enter_seccomp(int exec_restricted, char *problem, size_t size) {
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (!ctx) {
        snprintf(problem, size, "cannot create the seccomp filter");
        return -1;
    }
    pid_t self = getpid();
    int rc = 0;
    // No network: a plugin renders cells, it has nobody to talk to. Unix sockets too (a session
    // bus or a display server is a way out of the sandbox). A socketpair connects nothing but
    // its own two ends, and the Swift runtime's crash handler serves the backtracer its memory
    // over one, so it stays.
    rc |= trap(ctx, SCMP_SYS(socket));
    // No new processes: a child outlives the run and escapes its limits. clone3 passes its flags
    // in memory a filter cannot read, so it fails with ENOSYS and the C library falls back to
    // clone, whose flags are checked: threads are allowed. With Landlock limiting execution to
    // the Swift runtime's backtracer, a vfork-style clone (the parent waits until the child
    // executes or exits) is allowed too, so a crash still gets its backtrace; without Landlock
    // nothing may be executed, and the supervisor turns the backtracer off.
    rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
    scmp_datum_t allowed = CLONE_THREAD | (exec_restricted ? CLONE_VFORK : 0);
    rc |= seccomp_rule_add(ctx, SCMP_ACT_TRAP, SCMP_SYS(clone), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, allowed, 0));
    rc |= trap(ctx, SCMP_SYS(fork)) | trap(ctx, SCMP_SYS(vfork)) | trap(ctx, SCMP_SYS(execveat));
    if (!exec_restricted) rc |= trap(ctx, SCMP_SYS(execve));
    // Signals to itself only: a plugin must not kill the supervisor or anyone else.
    rc |= trap_unless_self(ctx, SCMP_SYS(kill), self) | trap_unless_self(ctx, SCMP_SYS(tgkill), self);
    rc |= trap_unless_self(ctx, SCMP_SYS(rt_sigqueueinfo), self) | trap_unless_self(ctx, SCMP_SYS(rt_tgsigqueueinfo), self);
    rc |= trap(ctx, SCMP_SYS(tkill)) | trap(ctx, SCMP_SYS(pidfd_open)) | trap(ctx, SCMP_SYS(pidfd_send_signal));
    // No tracing or writing other processes' memory.
    rc |= trap(ctx, SCMP_SYS(ptrace)) | trap(ctx, SCMP_SYS(process_vm_writev));
    // The worker stays in the process group and session the supervisor ends it by.
    rc |= trap(ctx, SCMP_SYS(setsid)) | trap(ctx, SCMP_SYS(setpgid));
    // Every thread, including any a library started before the sandbox.
    if (rc == 0) rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_TSYNC, 1);
    if (rc == 0) rc = seccomp_load(ctx);
    seccomp_release(ctx);
    if (rc != 0) {
        snprintf(problem, size, "cannot load the seccomp filter: %s", strerror(-rc));
        return -1;
    }
    return 0;
}

// MARK: The notification filter

int cellhost_seccomp_notify_available(void) {
    // API level 6 is a kernel of 5.7 or later: user notification (5.0) with the CONTINUE answer
    // (5.5) that lets the backtracer and writes inside the output folder go ahead.
    return cellhost_seccomp_available() && !kernel_lacks("notify") && seccomp_api_get() >= 6;
}

/// Notifies `nr` when the flags argument `flags` has any bit that creates, truncates or opens for
/// writing (one rule per bit: rules for one call are alternatives), unless argument 0 is the
/// host's write mark (`folder_is_a0`, for the *at calls).
static int notify_writing(scmp_filter_ctx ctx, int nr, unsigned flags, int folder_is_a0, int host_fd) {
    const scmp_datum_t bits[] = { O_WRONLY, O_RDWR, O_CREAT, O_TRUNC };
    int rc = 0;
    for (size_t i = 0; i < sizeof bits / sizeof bits[0]; i++) {
        struct scmp_arg_cmp written = SCMP_CMP(flags, SCMP_CMP_MASKED_EQ, bits[i], bits[i]);
        if (folder_is_a0 && host_fd >= 0)
            rc |= seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, nr, 2, SCMP_A0(SCMP_CMP_NE, (scmp_datum_t)host_fd), written);
        else
            rc |= seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, nr, 1, written);
    }
    return rc;
}

/// Sends `listener` and the writable folders (NUL-separated) to the supervisor in one message.
static int hand_over(int socket, int listener, const cellhost_sandbox_policy *p) {
    char paths[16384];
    size_t n = 0;
    for (size_t i = 0; i < p->write_count; i++) {
        size_t len = strlen(p->write_paths[i]) + 1;
        if (n + len > sizeof paths) return -1;
        memcpy(paths + n, p->write_paths[i], len);
        n += len;
    }
    if (n == 0) paths[n++] = 0;
    struct iovec io = { .iov_base = paths, .iov_len = n };
    union { struct cmsghdr header; char bytes[CMSG_SPACE(sizeof(int))]; } control;
    memset(&control, 0, sizeof control);
    struct msghdr message = { .msg_iov = &io, .msg_iovlen = 1, .msg_control = control.bytes, .msg_controllen = sizeof control.bytes };
    struct cmsghdr *c = CMSG_FIRSTHDR(&message);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &listener, sizeof(int));
    ssize_t sent;
    do sent = sendmsg(socket, &message, MSG_NOSIGNAL); while (sent < 0 && errno == EINTR);
    return sent == (ssize_t)n ? 0 : -1;
}

/// A second filter whose calls the supervisor answers: running a program (the runtime's crash
/// backtracer goes ahead, anything else is refused and reported) and writing outside the output
/// folder (refused and reported; inside it goes ahead). Landlock refuses both anyway; the
/// supervisor is what makes the attempt known, and blames the plugin only for calls made after
/// the sandbox was entered, which host code avoids (see `WorkerSandbox`).
///
/// It is loaded without TSYNC (older kernels and libseccomp do not combine TSYNC with a
/// listener), so it covers the thread entering the sandbox and every thread and process it
/// starts afterwards: the whole worker, as the sandbox is entered before any thread starts.
///
/// The listener goes to the supervisor and the worker keeps no copy, so plugin code cannot
/// answer its own calls. When the supervisor is gone the listener is closed and the kernel fails
/// every notified call (ENOSYS), so nothing it would have refused goes ahead.
static int enter_notify(const cellhost_sandbox_policy *p, int exec_restricted, char *problem, size_t size) {
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (!ctx) {
        snprintf(problem, size, "cannot create the notification filter");
        return -1;
    }
    int fd = p->host_write_fd, rc = 0;
    if (exec_restricted) rc |= seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(execve), 0);
#ifdef SYS_open
    rc |= notify_writing(ctx, SCMP_SYS(open), 1, 0, fd);
#endif
#ifdef SYS_creat
    rc |= seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(creat), 0);
#endif
    rc |= notify_writing(ctx, SCMP_SYS(openat), 2, 1, fd);
    // openat2 passes its flags in memory a filter cannot read: ENOSYS, and callers fall back to openat.
    rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(openat2), 0);
#ifdef SYS_mkdir
    rc |= seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(mkdir), 0);
#endif
    if (fd >= 0) rc |= seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(mkdirat), 1, SCMP_A0(SCMP_CMP_NE, (scmp_datum_t)fd));
    else rc |= seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(mkdirat), 0);
    // Removing, renaming, linking and truncating change a folder or a file as much as writing
    // does; the host's own (frames put in place, a spare removed) go through the mark.
    const int by_path[] = { SCMP_SYS(unlink), SCMP_SYS(rmdir), SCMP_SYS(rename), SCMP_SYS(link), SCMP_SYS(symlink),
                            SCMP_SYS(symlinkat), SCMP_SYS(truncate) };
    for (size_t i = 0; i < sizeof by_path / sizeof by_path[0]; i++)
        if (by_path[i] >= 0) rc |= seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, by_path[i], 0);
    const int by_folder[] = { SCMP_SYS(unlinkat), SCMP_SYS(renameat), SCMP_SYS(renameat2), SCMP_SYS(linkat) };
    for (size_t i = 0; i < sizeof by_folder / sizeof by_folder[0]; i++) {
        if (fd >= 0) rc |= seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, by_folder[i], 1, SCMP_A0(SCMP_CMP_NE, (scmp_datum_t)fd));
        else rc |= seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, by_folder[i], 0);
    }
    if (rc == 0) rc = seccomp_load(ctx);
    int listener = rc == 0 ? seccomp_notify_fd(ctx) : -1;
    seccomp_release(ctx);
    if (rc != 0 || listener < 0) {
        snprintf(problem, size, "cannot load the notification filter: %s", strerror(rc ? -rc : EBADF));
        return -1;
    }
    int handed = hand_over(p->listener_socket, listener, p);
    int saved = errno;
    close(listener);
    close(p->listener_socket);
    if (handed != 0) {
        snprintf(problem, size, "cannot hand the notification listener to the supervisor: %s", strerror(saved));
        return -1;
    }
    return 0;
}

static int limit(int resource, uint64_t value, const char *name, char *problem, size_t size) {
    if (value == 0) return 0;
    struct rlimit r = { .rlim_cur = value, .rlim_max = value };
    struct rlimit current;
    // A hard limit already lower stays: a limit may only be lowered.
    if (getrlimit(resource, &current) == 0 && current.rlim_max != RLIM_INFINITY && current.rlim_max < value)
        r.rlim_cur = r.rlim_max = current.rlim_max;
    if (setrlimit(resource, &r) != 0) {
        snprintf(problem, size, "cannot set the %s limit: %s", name, strerror(errno));
        return -1;
    }
    return 0;
}

int cellhost_sandbox_enter(const cellhost_sandbox_policy *p, char *problem, size_t size) {
    problem[0] = 0;
    // Without it an unprivileged process may not load a seccomp filter or Landlock rules, and
    // with it no setuid program can give a plugin more rights than the worker has.
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
        snprintf(problem, size, "cannot set no_new_privs: %s", strerror(errno));
        return -1;
    }
    if (limit(RLIMIT_AS, p->memory_bytes, "memory", problem, size) || limit(RLIMIT_CPU, p->cpu_seconds, "CPU time", problem, size)
        || limit(RLIMIT_FSIZE, p->file_bytes, "file size", problem, size) || limit(RLIMIT_NOFILE, p->open_files, "open file", problem, size))
        return -1;
    report_fd = p->channel_fd;
    if (p->memory_bytes) {
        const int fatal[] = { SIGSEGV, SIGBUS, SIGILL, SIGABRT, SIGTRAP, SIGFPE };
        for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++) install(fatal[i], on_fatal_signal, &previous_fatal[fatal[i]]);
    }
    int missing = 0;
    int abi = cellhost_landlock_abi();
    if (abi == 0) missing |= CELLHOST_SANDBOX_NO_LANDLOCK;
    else if (enter_landlock(p, abi, problem, size) != 0) return -1;
    if (!cellhost_seccomp_available()) return missing | CELLHOST_SANDBOX_NO_SECCOMP;
    install(SIGSYS, on_refused_call, NULL);
    if (enter_seccomp(abi != 0, problem, size) != 0) return -1;
    if (p->listener_socket < 0) return missing;
    if (!cellhost_seccomp_notify_available()) {
        close(p->listener_socket);
        return missing | CELLHOST_SANDBOX_NO_NOTIFY;
    }
    if (enter_notify(p, abi != 0, problem, size) != 0) return -1;
    return missing;
}

int cellhost_die_with_parent(pid_t expected_parent) {
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    // The parent may have died between the spawn and the request: then no signal will come.
    if (getppid() != expected_parent) raise(SIGKILL);
    return 0;
}

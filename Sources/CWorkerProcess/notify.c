// The supervisor's side of the notification filter (see enter_notify in sandbox.c): receiving
// the listener from the worker, and receiving, reading and answering the calls it stops. What a
// call is, by its number and arguments, is said here, where the system call numbers are; what
// the supervisor answers is decided in Swift (SandboxListener.swift).
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SECCOMP_USER_NOTIF_FLAG_CONTINUE
#define SECCOMP_USER_NOTIF_FLAG_CONTINUE (1UL << 0)
#endif

#include "worker_process.h"

int cellhost_listener_receive(int socket, char *paths, size_t size, size_t *length) {
    struct iovec io = { .iov_base = paths, .iov_len = size };
    union { struct cmsghdr header; char bytes[CMSG_SPACE(sizeof(int))]; } control;
    struct msghdr message = { .msg_iov = &io, .msg_iovlen = 1, .msg_control = control.bytes, .msg_controllen = sizeof control.bytes };
    ssize_t n;
    do n = recvmsg(socket, &message, MSG_CMSG_CLOEXEC); while (n < 0 && errno == EINTR);
    *length = n > 0 ? (size_t)n : 0;
    struct cmsghdr *c = n > 0 ? CMSG_FIRSTHDR(&message) : NULL;
    if (!c || c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS || c->cmsg_len != CMSG_LEN(sizeof(int))) return -1;
    int fd;
    memcpy(&fd, CMSG_DATA(c), sizeof fd);
    return fd;
}

/// What the filter's call `nr` is, and where its path and folder are among `args`.
static void describe(int nr, const __u64 *args, cellhost_notification *n) {
    n->kind = CELLHOST_NOTIFIED_WRITE;
    n->folder_fd = AT_FDCWD;
    n->makes_folder = 0;
    n->path_address = args[0];
    switch (nr) {
    case SYS_execve: n->kind = CELLHOST_NOTIFIED_RUN; break;
#ifdef SYS_open
    case SYS_open: break;
#endif
#ifdef SYS_creat
    case SYS_creat: break;
#endif
#ifdef SYS_mkdir
    case SYS_mkdir: n->makes_folder = 1; break;
#endif
    case SYS_mkdirat: n->makes_folder = 1; /* fall through */
    case SYS_openat: n->folder_fd = (int32_t)args[0]; n->path_address = args[1]; break;
#ifdef SYS_truncate
    case SYS_truncate: break;
#endif
    // A rename or a link writes the name it makes (its second path).
#ifdef SYS_rename
    case SYS_rename:
#endif
#ifdef SYS_link
    case SYS_link:
#endif
#ifdef SYS_symlink
    case SYS_symlink:
#endif
        n->path_address = args[1];
        break;
    case SYS_symlinkat: n->folder_fd = (int32_t)args[1]; n->path_address = args[2]; break;
    case SYS_renameat:
    case SYS_renameat2:
    case SYS_linkat: n->folder_fd = (int32_t)args[2]; n->path_address = args[3]; break;
#ifdef SYS_unlink
    case SYS_unlink:
#endif
#ifdef SYS_rmdir
    case SYS_rmdir:
#endif
        n->kind = CELLHOST_NOTIFIED_REMOVE;
        break;
    case SYS_unlinkat: n->kind = CELLHOST_NOTIFIED_REMOVE; n->folder_fd = (int32_t)args[0]; n->path_address = args[1]; break;
    default: n->kind = 0;
    }
}

int cellhost_notify_receive(int listener, cellhost_notification *out) {
    struct seccomp_notif *request;
    struct seccomp_notif_resp *response;
    if (seccomp_notify_alloc(&request, &response) != 0) return -1;
    int rc = seccomp_notify_receive(listener, request);
    if (rc == 0) {
        out->id = request->id;
        out->pid = (int32_t)request->pid;
        describe(request->data.nr, request->data.args, out);
    }
    seccomp_notify_free(request, response);
    if (rc != 0) errno = -rc;
    return rc == 0 ? 0 : -1;
}

long cellhost_notify_read_string(int32_t pid, uint64_t address, char *buffer, size_t size) {
    char name[64];
    snprintf(name, sizeof name, "/proc/%d/mem", (int)pid);
    int fd = open(name, O_RDONLY | O_CLOEXEC);
    if (fd < 0 || size == 0) return fd < 0 ? -1 : 0;
    // Page by page: the string may end just before an unmapped page.
    size_t n = 0;
    while (n < size - 1) {
        size_t page_left = 4096 - ((address + n) & 4095);
        size_t want = page_left < size - 1 - n ? page_left : size - 1 - n;
        ssize_t got = pread(fd, buffer + n, want, (off_t)(address + n));
        if (got <= 0) break;
        void *end = memchr(buffer + n, 0, (size_t)got);
        if (end) { n = (size_t)((char *)end - buffer); close(fd); buffer[n] = 0; return (long)n; }
        n += (size_t)got;
    }
    close(fd);
    buffer[n] = 0;
    return n == 0 ? -1 : (long)n;
}

int cellhost_notify_id_valid(int listener, uint64_t id) { return seccomp_notify_id_valid(listener, id) == 0; }

int cellhost_notify_respond(int listener, uint64_t id, int error) {
    struct seccomp_notif *request;
    struct seccomp_notif_resp *response;
    if (seccomp_notify_alloc(&request, &response) != 0) return -1;
    response->id = id;
    response->val = 0;
    response->error = error ? -error : 0;
    response->flags = error ? 0 : SECCOMP_USER_NOTIF_FLAG_CONTINUE;
    int rc = seccomp_notify_respond(listener, response);
    seccomp_notify_free(request, response);
    return rc;
}

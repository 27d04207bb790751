/*
 * A plugin that attacks the machine it runs on, one way per build: the test compiles it with
 * -DATTACK_<NAME> (and -DTARGET="path" where the attack needs one). The attack runs when an item's
 * count is set to 13, so it happens at a known event, or in init with -DIN_INIT; ATTACK_CHDIR
 * acts in init, and ATTACK_ALLOCATE allocates (and touches) 1 GB on every count it is given.
 * ATTACK_DIE ends the worker at once (SIGKILL to itself: no crash handler runs, so nothing
 * else the worker does, such as encoding the frame before, goes on after it). ATTACK_TRAP traps
 * in the plugin's own code (SIGILL, as a Swift plugin's failed check would).
 */
#define _GNU_SOURCE
#define REPLACE_SET_COUNT
#if defined(ATTACK_CHDIR) || defined(IN_INIT)
#define REPLACE_INIT
#endif
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <unistd.h>
#include "base.h"

__attribute__((unused)) static void attack(void) {
#if defined(ATTACK_KILL_PARENT)
    kill(getppid(), SIGKILL);
#elif defined(ATTACK_SOCKET)
    socket(AF_INET, SOCK_STREAM, 0);
#elif defined(ATTACK_FORK)
    if (fork() == 0) {
        /* The daemon: a new session (unless -DKEEP_GROUP), then it lives on and leaves a mark. */
#ifndef KEEP_GROUP
        setsid();
#endif
        sleep(2);
        int fd = open(TARGET, O_CREAT | O_WRONLY, 0600);
        if (fd >= 0) close(fd);
        _exit(0);
    }
#elif defined(ATTACK_EXECVE)
    execl("/bin/sh", "sh", "-c", "touch '" TARGET "'", (char *)NULL);
#elif defined(ATTACK_PTRACE)
    ptrace(PTRACE_ATTACH, getppid(), NULL, NULL);
#elif defined(ATTACK_SETSID)
    setsid();
#elif defined(ATTACK_DIE)
    kill(getpid(), SIGKILL);
#elif defined(ATTACK_TRAP)
    __builtin_trap();
#elif defined(ATTACK_WRITE_FILE)
    FILE *f = fopen(TARGET, "w");
    if (f) { fputs("escaped\n", f); fclose(f); }
#elif defined(ATTACK_REMOVE_FILE)
    unlink(TARGET);
#endif
}

static void set_count(cellhost_config *c, const cellhost_property *p, int64_t v) {
    (void)p;
#ifdef ATTACK_ALLOCATE
    char *block = malloc(1u << 30);
    memset(block, 1, 1u << 30);
    c->box = (int64_t *)block;
#else
    if (v == 13) attack();
#endif
    c->count = v;
    c->customized |= 1u << P_COUNT;
}

#ifdef REPLACE_INIT
static bool init(const cellhost_host *h) {
    host = h;
#ifdef ATTACK_CHDIR
    return chdir("/") == 0;
#else
    attack();
    return true;
#endif
}
#endif
#include "tables.h"

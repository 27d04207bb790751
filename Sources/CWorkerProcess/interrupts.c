// The supervisor's side of an interrupt: SIGINT, SIGTERM or SIGHUP must not end `cellhost`
// before it has ended its worker and committed the traces, so while a worker runs they are
// only remembered, and the blocking wait for the worker returns (EINTR) to act on them.
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <string.h>

#include "worker_process.h"

static volatile sig_atomic_t received = 0;
static struct sigaction previous[3];
static const int caught[3] = { SIGINT, SIGTERM, SIGHUP };

static void remember(int sig) {
    if (!received) received = sig;
}

void cellhost_interrupts_catch(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = remember;
    sigemptyset(&action.sa_mask);
    sigset_t set;
    sigemptyset(&set);
    for (int i = 0; i < 3; i++) {
        sigaction(caught[i], &action, &previous[i]);
        sigaddset(&set, caught[i]);
    }
    // A parent may have started cellhost with them blocked (a test runner's thread does); the
    // user's request to stop must still arrive.
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

void cellhost_interrupts_release(void) {
    for (int i = 0; i < 3; i++) sigaction(caught[i], &previous[i], NULL);
}

int cellhost_interrupt_received(void) { return received; }

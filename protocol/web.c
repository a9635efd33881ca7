/* web.c - the engine's input in a web page; see web.h. */
#include "web.h"

#ifdef __EMSCRIPTEN__

#include <emscripten.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <time.h>
#include <unistd.h>

static int fds[2] = {-1, -1};
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t kicked = PTHREAD_COND_INITIALIZER;
static unsigned kicks; /* under lock: each kick counts, so none is missed */
/* emscripten's pipes never say end of file (a read of an empty pipe is
 * EAGAIN, its write end closed or not), so the input's end is a flag */
static atomic_bool ended;

int web_input_fd(void)
{
    pthread_mutex_lock(&lock);
    if (fds[0] < 0 && pipe(fds))
        fds[0] = fds[1] = -1;
    const int fd = fds[0];
    pthread_mutex_unlock(&lock);
    return fd;
}

EMSCRIPTEN_KEEPALIVE int stern_input(const char *bytes, int n)
{
    if (n < 0 || web_input_fd() < 0 || atomic_load(&ended))
        return -1;
    const int rc = n == 0 || write(fds[1], bytes, (size_t)n) == n ? 0 : -1;
    web_kick();
    return rc;
}

EMSCRIPTEN_KEEPALIVE void stern_input_end(void)
{
    atomic_store(&ended, true);
    web_kick();
}

ssize_t web_read(int fd, void *buf, size_t n)
{
    const ssize_t r = read(fd, buf, n);
    return r < 0 && errno == EAGAIN && fd == fds[0] && atomic_load(&ended) ? 0 : r;
}

void web_kick(void)
{
    pthread_mutex_lock(&lock);
    kicks++;
    pthread_cond_broadcast(&kicked);
    pthread_mutex_unlock(&lock);
}

int web_poll(struct pollfd *p, nfds_t n)
{
    for (;;) {
        pthread_mutex_lock(&lock);
        const unsigned seen = kicks;
        pthread_mutex_unlock(&lock);
        int r = poll(p, n, 0);
        for (nfds_t i = 0; i < n; i++) /* the input's end reads as such (web_read) */
            if (p[i].fd == fds[0] && !p[i].revents && atomic_load(&ended)) {
                p[i].revents = POLLIN;
                r = r < 0 ? 1 : r + 1;
            }
        if (r != 0)
            return r;
#ifndef __EMSCRIPTEN_PTHREADS__
        emscripten_sleep(10); /* one thread (Asyncify): the page's event loop runs, its lines arrive */
        continue;
#endif
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 100 * 1000 * 1000;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_mutex_lock(&lock);
        while (kicks == seen && pthread_cond_timedwait(&kicked, &lock, &until) != ETIMEDOUT) {
        }
        pthread_mutex_unlock(&lock);
    }
}

#else
typedef int web_native_has_none; /* ISO C: a translation unit is not empty */
#endif

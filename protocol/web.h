/*
 * web.h - the engine's input in a web page (a WebAssembly build, docs/WEB.md):
 * the page hands protocol input to stern_input, which writes it to a pipe
 * the engine reads as it reads stdin natively, and wakes the reader. A page
 * cannot block, and emscripten's poll does not wait, so the reader waits on a
 * condition variable that each line and each job's answer signals. Built only
 * with emscripten (__EMSCRIPTEN__); the native engine has none of it.
 */
#ifndef STERN_WEB_H
#define STERN_WEB_H

#ifdef __EMSCRIPTEN__

#include <poll.h>
#include <sys/types.h>

/* The read end of the engine's input pipe (created on the first call); -1
 * when no pipe can be made. */
int web_input_fd(void);

/* Called by the page (exported): n bytes of input (lines, each ending in
 * '\n'; a line may come in parts) are written to the input pipe as they are,
 * and the reader is woken: the engine cuts and checks the lines as it does
 * stdin's (a NUL or an over-long line is refused whole). Returns 0, or -1
 * (nothing written) after stern_input_end, or when no pipe can be made. */
int stern_input(const char *bytes, int n);

/* Called by the page (exported): the end of the input, as the end of stdin
 * natively (a search that ends by itself answers first, then the engine
 * exits). Later input is refused (-1 from stern_input). */
void stern_input_end(void);

/* read(fd, buf, n), but 0 (end of file) on the input pipe once it is empty
 * after stern_input_end. */
ssize_t web_read(int fd, void *buf, size_t n);

/* poll(fds, n, -1) as a page can wait: polls without waiting, and while
 * nothing is ready waits for web_kick (or 100 ms, so that a missed kick
 * costs no more); in the one-thread build (no pthreads) it sleeps 10 ms at a
 * time through Asyncify, which hands the page's event loop the thread. */
int web_poll(struct pollfd *fds, nfds_t n);

/* Wakes web_poll's waiter: something it polls may be ready. */
void web_kick(void);

#endif

#endif

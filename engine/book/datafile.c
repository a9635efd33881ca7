/* datafile.c - data files opened without blocking; see datafile.h. */
#include "datafile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What a file of mode m is, when it is not a regular file. */
static const char *kind(mode_t m)
{
    return S_ISFIFO(m)   ? "a FIFO"
           : S_ISDIR(m)  ? "a directory"
           : S_ISCHR(m)  ? "a character device"
           : S_ISBLK(m)  ? "a block device"
           : S_ISSOCK(m) ? "a socket"
                         : NULL;
}

FILE *datafile_open(const char *path, char *why, size_t whylen)
{
    /* O_NOCTTY: a terminal named by mistake does not become the engine's */
    const int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(why, whylen, "cannot open: %s", strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st)) {
        snprintf(why, whylen, "cannot open: %s", strerror(errno));
        close(fd);
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        const char *k = kind(st.st_mode);
        if (k)
            snprintf(why, whylen, "%s, not a regular file", k);
        else
            snprintf(why, whylen, "not a regular file");
        close(fd);
        return NULL;
    }
    const int flags = fcntl(fd, F_GETFL);
    FILE *f = flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) ? NULL : fdopen(fd, "rb");
    if (!f) {
        snprintf(why, whylen, "cannot open: %s", strerror(errno));
        close(fd);
    }
    return f;
}

uint8_t *datafile_read(const char *path, size_t max, size_t *n, char *why, size_t whylen)
{
    *n = 0;
    FILE *f = datafile_open(path, why, whylen);
    if (!f)
        return NULL;
    /* read to the end, not to the size fstat gave: the file may change meanwhile */
    size_t cap = 1 << 16, len = 0;
    uint8_t *buf = malloc(cap);
    int read_errno = 0;
    while (buf) {
        errno = 0;
        len += fread(buf + len, 1, cap - len, f);
        read_errno = errno;
        if (len < cap || len > max)
            break;
        /* no more than one byte past max: that byte tells the file is larger */
        const size_t want = cap * 2 < max + 1 ? cap * 2 : max + 1;
        uint8_t *grown = realloc(buf, want);
        if (!grown)
            free(buf);
        buf = grown;
        cap = want;
    }
    const int failed = ferror(f) ? (read_errno ? read_errno : EIO) : 0;
    fclose(f);
    if (!buf)
        snprintf(why, whylen, "out of memory");
    else if (failed)
        snprintf(why, whylen, "cannot read: %s", strerror(failed));
    else if (len > max)
        snprintf(why, whylen, "larger than %zu bytes", max);
    else {
        *n = len;
        return buf;
    }
    free(buf);
    return NULL;
}

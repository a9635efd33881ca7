/* shipped.c - files shipped with the engine; see shipped.h. */
#include "shipped.h"

#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

bool shipped_file(const char *dir, const char *name, const char *ext, char *out, size_t n)
{
#ifdef __EMSCRIPTEN__
    const char *bin = "/stern/bin"; /* the page fetches the files to /stern/<dir>/ (docs/WEB.md) */
#else
    char exe[PATH_MAX];
    const ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0)
        return false;
    exe[len] = 0;
    const char *bin = dirname(exe);
#endif
    static const char *const places[] = {"%s/../%s/%s%s", "%s/../share/stern/%s/%s%s"};
    for (size_t i = 0; i < sizeof places / sizeof *places; i++) {
        snprintf(out, n, places[i], bin, dir, name, ext);
        if (access(out, R_OK) == 0)
            return true;
    }
    return false;
}

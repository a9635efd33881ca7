/* exe_id.c - the hash of a process's executable; see exe_id.h. */
#include "exe_id.h"

#include <stdio.h>
#include <xxhash.h>

bool exe_id_of(pid_t pid, uint64_t *hash)
{
    char path[64];
    if (pid)
        snprintf(path, sizeof path, "/proc/%ld/exe", (long)pid);
    else
        snprintf(path, sizeof path, "/proc/self/exe");
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    XXH3_state_t *st = XXH3_createState();
    bool ok = st != NULL;
    if (ok) {
        uint8_t buf[1 << 16];
        size_t n;
        XXH3_64bits_reset(st);
        while ((n = fread(buf, 1, sizeof buf, f)) > 0)
            XXH3_64bits_update(st, buf, n);
        ok = !ferror(f);
        if (ok)
            *hash = XXH3_64bits_digest(st);
        XXH3_freeState(st);
    }
    fclose(f);
    return ok;
}

/* checkpoint.c - stern-spsa's checkpoint; see checkpoint.h. */
#include "checkpoint.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAGIC "stern-spsa checkpoint 1"

int checkpoint_write(const char *path, const char *run, const SpsaState *s, char *err, size_t errlen)
{
    char tmp[4200];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
        snprintf(err, errlen, "%s: the path is too long", path);
        return -1;
    }
    FILE *f = fopen(tmp, "w");
    if (!f) {
        snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
        return -1;
    }
    fprintf(f, "%s\nrun %s\niteration %d\ndraws %ld\n", MAGIC, run, s->done, s->draws);
    for (int i = 0; i < s->np; i++)
        fprintf(f, "weight %s %.17g\n", s->name[i], s->value[i]);
    /* fflush and fclose report a full disk; rename makes the new file whole at once */
    int bad = fflush(f) != 0;
    bad |= fsync(fileno(f)) != 0; /* on disk before the rename: whole after a node's crash too */
    bad |= ferror(f) != 0;
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path)) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        remove(tmp);
        return -1;
    }
    return 0;
}

/* The next line of f (its newline cut) into buf, counted in *n; an empty
 * string at the end of the file. */
static void next_line(FILE *f, char *buf, size_t size, int *n)
{
    (*n)++;
    if (!fgets(buf, (int)size, f))
        buf[0] = 0;
    buf[strcspn(buf, "\n")] = 0;
}

int checkpoint_read(const char *path, const char *run, SpsaState *s, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        if (errno == ENOENT)
            return 0;
        snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
        return -1;
    }
    char line[8192], tail;
    int n = 0;
    const char *why = NULL;
    next_line(f, line, sizeof line, &n);
    if (strcmp(line, MAGIC))
        why = "not a stern-spsa checkpoint";
    if (!why && (next_line(f, line, sizeof line, &n), strncmp(line, "run ", 4)))
        why = "expected 'run SETTINGS'";
    if (!why && strcmp(line + 4, run)) {
        snprintf(err, errlen, "%s is the checkpoint of another run (%s), not of this one (%s): start it afresh "
                 "or give the same settings", path, line + 4, run);
        fclose(f);
        return -1;
    }
    if (!why && (next_line(f, line, sizeof line, &n), sscanf(line, "iteration %d %c", &s->done, &tail) != 1 ||
                 s->done < 0))
        why = "expected 'iteration N'";
    if (!why && (next_line(f, line, sizeof line, &n), sscanf(line, "draws %ld %c", &s->draws, &tail) != 1 ||
                 s->draws < 0))
        why = "expected 'draws N'";
    for (int i = 0; !why && i < s->np; i++) {
        char name[CHECKPOINT_NAME];
        next_line(f, line, sizeof line, &n);
        if (sscanf(line, "weight %63s %lf %c", name, &s->value[i], &tail) != 2)
            why = "expected 'weight NAME VALUE'";
        else if (strcmp(name, s->name[i]))
            why = "a weight of another run (the -param names differ)";
    }
    if (!why && (next_line(f, line, sizeof line, &n), line[0] || !feof(f)))
        why = "more lines than the run's weights";
    fclose(f);
    if (why)
        snprintf(err, errlen, "%s line %d: %s", path, n, why);
    return why ? -1 : 1;
}

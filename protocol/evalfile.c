/* evalfile.c - the EvalFile option; see evalfile.h. */
#include "evalfile.h"

#include "datafile.h"
#include "shipped.h"

#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <strings.h>

/* The net in the file at `path`, read by datafile_read (so a FIFO or a device
 * is refused, never waited on), or NULL with the reason in why. */
static Nnue *load_net(const char *path, char *why, size_t whylen)
{
    size_t n;
    uint8_t *bytes = datafile_read(path, NNUE_FILE_MAX, &n, why, whylen);
    if (!bytes)
        return NULL;
    Nnue *net = nnue_from_bytes(bytes, n, why, whylen);
    free(bytes);
    return net;
}

void evalfile_init(EvalFile *f)
{
    memset(f, 0, sizeof *f);
    snprintf(f->file, sizeof f->file, "auto");
}

void evalfile_free(EvalFile *f)
{
    nnue_delete(f->net);
    nnue_delete(f->shipped);
    f->net = f->shipped = NULL;
    f->shipped_for[0] = 0;
}

int evalfile_set(EvalFile *f, const char *value, const Variant *v, char *err, size_t errlen, char *note,
                 size_t notelen)
{
    note[0] = 0;
    if (strlen(value) >= sizeof f->file) {
        snprintf(err, errlen, "a path of more than %zu bytes", sizeof f->file - 1);
        return -1;
    }
    Nnue *net = NULL;
    if (!value[0])
        value = "auto"; /* <empty>: the default */
    if (strcasecmp(value, "auto") && strcasecmp(value, "none")) {
        char why[256];
        net = load_net(value, why, sizeof why);
        if (!net) {
            snprintf(err, errlen, "%s: %s", value, why);
            return -1;
        }
    }
    nnue_delete(f->net);
    f->net = net;
    snprintf(f->file, sizeof f->file, "%s", value);
    f->told_for[0] = 0;
    if (net && !nnue_serves(net, v)) { /* kept for its variants, as a book of another variant is */
        snprintf(f->told_for, sizeof f->told_for, "%s", v->name);
        snprintf(note, notelen, "EvalFile %s is a net for %s, not for %s: the hand-written evaluation plays", value,
                 nnue_variants(net), v->name);
    }
    return 0;
}

/* Loads the shipped net for v into f->shipped (once per variant): the first
 * of nets/<variant>.nnue and nets/classic-<seats>.nnue, in the directory above
 * the engine binary's (the build tree) or share/stern/ above it (an install),
 * that holds a net serving v. */
static void load_shipped(EvalFile *f, const Variant *v)
{
    if (!strcmp(f->shipped_for, v->name))
        return;
    nnue_delete(f->shipped);
    f->shipped = NULL;
    f->shipped_fault[0] = 0;
    snprintf(f->shipped_for, sizeof f->shipped_for, "%s", v->name);
    char classic[24];
    snprintf(classic, sizeof classic, "classic-%d", v->nseats);
    const char *const names[] = {v->name, classic};
    for (size_t i = 0; i < 2; i++) {
        char path[OWNBOOK_PATH_MAX + 64], why[256];
        _Static_assert(sizeof f->shipped_fault >= sizeof path + sizeof why + 96, "shipped_fault too small");
        if (!shipped_file("nets", names[i], ".nnue", path, sizeof path))
            continue;
        Nnue *net = load_net(path, why, sizeof why);
        if (net && nnue_serves(net, v)) {
            f->shipped = net;
            return;
        }
        if (!net) /* said at the next evalfile_net that takes a note */
            snprintf(f->shipped_fault, sizeof f->shipped_fault, "the shipped net %s is refused: %s; the "
                     "hand-written evaluation plays", path, why);
        nnue_delete(net);
    }
}

const Nnue *evalfile_net(EvalFile *f, const Variant *v, char *note, size_t notelen)
{
    if (note)
        note[0] = 0;
    if (!strcasecmp(f->file, "none"))
        return NULL;
    if (!strcasecmp(f->file, "auto")) {
        load_shipped(f, v);
        if (note && f->shipped_fault[0]) {
            snprintf(note, notelen, "%s", f->shipped_fault);
            f->shipped_fault[0] = 0;
        }
        return f->shipped;
    }
    if (f->net && nnue_serves(f->net, v))
        return f->net;
    if (note && strcmp(f->told_for, v->name)) {
        snprintf(f->told_for, sizeof f->told_for, "%s", v->name);
        snprintf(note, notelen, "EvalFile %s is a net for %s, not for %s: the hand-written evaluation plays", f->file,
                 f->net ? nnue_variants(f->net) : "nothing", v->name);
    }
    return NULL;
}

/*
 * shipped.h - the data files shipped with the engine (opening books, nets):
 * found beside the engine binary, so that the build tree and an install both
 * work without a setting.
 */
#ifndef STERN_SHIPPED_H
#define STERN_SHIPPED_H

#include <stdbool.h>
#include <stddef.h>

/* The path of shipped file <dir>/<name><ext> (e.g. "book", "classic-2",
 * ".bin") into out (n bytes): in the directory above the engine binary's (the
 * build tree: build/stern), else in share/stern/ above it (an install:
 * bin/stern); in a WebAssembly build in /stern/<dir>/, where the page puts
 * them. False when neither is readable (out then holds the last tried). */
bool shipped_file(const char *dir, const char *name, const char *ext, char *out, size_t n);

#endif

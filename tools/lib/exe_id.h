/*
 * exe_id.h - which build a program is: the XXH3-64 of its executable's bytes,
 * read through /proc (Linux). Data and records carry it so that work of two
 * different builds is never mixed (stern-datagen's -resume and -merge,
 * stern-arena's -resume and -merge).
 */
#ifndef STERN_EXE_ID_H
#define STERN_EXE_ID_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* The XXH3-64 of the executable of process pid (0: this process), into
 * *hash. False when it cannot be read (the process is gone, or /proc is
 * not there). */
bool exe_id_of(pid_t pid, uint64_t *hash);

#endif

/*
 * merge.h - stern-datagen -merge: the shards of one run (-shard K/N, format 2 or 3)
 * joined into the file one process would have written: the same header (not
 * sharded) and the games in their order in the run, byte for byte.
 */
#ifndef STERN_DATAGEN_MERGE_H
#define STERN_DATAGEN_MERGE_H

/* Merges the n shard files `in` into `out` (refused when it exists). Every
 * shard of the run must be there once, whole (all its games written), with
 * the same variant, seed, nodes, random plies, games, engine and net; a file
 * that is not is named with why. Returns the exit status: 0, 1 when writing
 * fails, 2 for refused inputs. */
int merge_shards(const char *out, char *const *in, int n);

#endif

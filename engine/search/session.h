/*
 * session.h - a search session: what the searches of one engine share from one
 * search to the next, and the one way in to the search from outside
 * engine/search. A session owns its transposition table, its thread pool, the
 * history scores and the MCTS tree a search leaves for the next, and the table
 * of moves its threads are searching; two sessions share nothing and may
 * search at once. The table is allocated when first needed (session_ready,
 * session_new_game, session_search), so that a size set before then costs no
 * memory twice. Not thread-safe itself: one thread calls a session's
 * functions, the search in progress is stopped through its SearchSignals.
 */
#ifndef STERN_SESSION_H
#define STERN_SESSION_H

#include "search.h"

#include <stddef.h>

typedef struct SearchSession SearchSession;

/* A session whose table will be `hash_mib` MiB (1-65536; nothing allocated
 * yet) and whose pool has `threads` threads (1-MAX_THREADS; started now).
 * NULL when out of memory for even one thread. */
SearchSession *session_new(size_t hash_mib, int threads);

/* Stops the session's threads and frees everything it holds (no search
 * running; NULL is ignored). */
void session_delete(SearchSession *s);

/* Sets the table's size to `mib` MiB (1-65536). Before the table exists, only
 * notes it (0). After, resizes and clears it at once: 0, or -1 when the
 * memory cannot be had (the old table and size are kept). No search running. */
int session_set_hash(SearchSession *s, size_t mib);

/* The table's size asked for (MiB), and the size it has (0 before it exists;
 * less than asked when memory was short at session_ready). */
size_t session_hash(const SearchSession *s);
size_t session_hash_allocated(const SearchSession *s);

/* Replaces the pool with one of `threads` threads (1-MAX_THREADS). Returns
 * the threads the new pool has (fewer when memory or the system is short),
 * or 0 when it has none (the old pool is kept). No search running. */
int session_set_threads(SearchSession *s, int threads);

/* Threads in the session's pool. */
int session_threads(const SearchSession *s);

/* Allocates the table when it does not exist yet: at the size asked, or, when
 * memory is short, the largest power-of-two MiB below it that fits, the
 * threads started again after it with what memory is left (the table comes
 * first, as when it was made at start-up). Returns the MiB the table has, 0
 * when not even 1 MiB could be had. */
size_t session_ready(SearchSession *s);

/* A new game: the table (after session_ready), the history scores and the
 * kept MCTS tree are cleared. */
void session_new_game(SearchSession *s);

/* Clears the table only (Clear Hash). */
void session_clear_hash(SearchSession *s);

/* Searches g as search_run (search.h) with the session's table, threads and
 * what its last search left (after session_ready; without a table it answers
 * with a no-memory report and the first legal move). Blocks until done; stop
 * it by setting sig->stop from another thread. */
SearchResult session_search(SearchSession *s, const Game *g, const SearchLimits *limits, const SearchConfig *config,
                            SearchSignals *sig, SearchOutput out, void *ctx);

/* Bytes of the table its warm-up has touched so far (tt_warmed; for tests). */
size_t session_warmed(const SearchSession *s);

#endif

/*
 * info.h - the protocol's text of a search report (docs/PROTOCOL.md "Engine to
 * GUI"): `info depth ...`, `info string ...` and `bestmove ...` lines.
 */
#ifndef STERN_INFO_H
#define STERN_INFO_H

#include "report.h"

#include <stddef.h>

/* Longest line info_text writes, with its NUL; a longer PV is cut short. */
#define INFO_LINE_MAX 12288

/* Writes the line of report r, without newline, into buf (INFO_LINE_MAX bytes).
 * Returns buf. */
char *info_text(const SearchReport *r, char *buf);

/* A writer of move m (legal in p) as text into buf (MOVE_STR_MAX bytes), e.g.
 * move_str (notation.h) or ccp_move_str (ccpcells.h); returns buf. */
typedef char *(*MoveTextFn)(const Position *p, const Move *m, char *buf);

/* Appends " <m1> <m2> ..." (r's PV, each move written by `text`) at o, stopping
 * while a further move still fits before `end`; NUL-terminates. Returns the end
 * of what was written. */
char *info_pv_text(const SearchReport *r, MoveTextFn text, char *o, const char *end);

/* The nodes per second of report r, from its time in microseconds (0 when no
 * time was measured). */
uint64_t info_nps(const SearchReport *r);

#endif

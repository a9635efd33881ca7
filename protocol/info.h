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

#endif

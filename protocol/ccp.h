/*
 * ccp.h - the text of search reports in the rating list's protocol CCP
 * (docs/CCERL.md); its cells and moves are in ccpcells.h. The command loop
 * (uci.h) speaks CCP when asked.
 */
#ifndef STERN_CCP_H
#define STERN_CCP_H

#include "ccpcells.h"
#include "report.h"

#define CCP_MATE_CP 30000     /* a mate in n own moves is written as score cp 30000 - n */

/* Writes the CCP line of report r (`info depth ... score cp ... pv ...`,
 * `bestmove <path>`, `bestmove 0000` without a move, `info string ...`) into buf
 * (INFO_LINE_MAX bytes, info.h). Returns buf. */
char *ccp_info_text(const SearchReport *r, char *buf);

#endif

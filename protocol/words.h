/*
 * words.h - the words of a command line: splitting it into tokens, joining
 * tokens back, and reading whole numbers from them. No state: the tokens
 * point into the line they were cut from.
 */
#ifndef STERN_WORDS_H
#define STERN_WORDS_H

#include <stdbool.h>
#include <stddef.h>

#define MAX_TOKENS 8192      /* a line with more is refused whole */
#define MAX_CLOCK_MS 1000000000000LL /* ~31 years: see words_ms */

typedef struct {
    int n;
    char *t[MAX_TOKENS];
} Tokens;

/* Splits `line` in place at spaces, tabs, CRs and newlines into tk. Returns
 * false when it has more than MAX_TOKENS (tk then holds the first ones). */
bool words_tokenize(char *line, Tokens *tk);

/* Joins tokens [from, to) of tk with single spaces into buf (len bytes).
 * Returns false when they do not fit (buf then holds a cut part). */
bool words_join(const Tokens *tk, int from, int to, char *buf, size_t len);

/* Reads `s`, a whole decimal integer (strtoll's form: leading blanks and a
 * sign allowed, nothing after), into *out when it is within [lo, hi].
 * Returns false, *out untouched, when it is not. */
bool words_int(const char *s, long long lo, long long hi, long long *out);

/* Reads `s`, a time in ms written as a whole number of any size, into *out
 * when it is lo or more: a negative time becomes 0 and one above MAX_CLOCK_MS
 * becomes MAX_CLOCK_MS, so that the time manager's products cannot overflow
 * 64 bits. Returns false, *out untouched, when it is no number or below lo. */
bool words_ms(const char *s, long long lo, long long *out);

#define QUOTE_MAX 200               /* bytes of a word an error line quotes, at most */
#define QUOTE_BUF (QUOTE_MAX + 48) /* room for a quoted word (words_quote) */

/* Word `w` as an error line quotes it: itself when it has at most QUOTE_MAX
 * bytes, else its first QUOTE_MAX bytes, "..." and its length ("(10485760
 * bytes)") in buf, so that a huge bad word is not echoed whole. Returns w or
 * buf. */
const char *words_quote(const char *w, char buf[QUOTE_BUF]);

/* Whether `s` is written as an integer: signs, then one digit or more, of
 * any size. */
bool words_is_integer(const char *s);

#endif

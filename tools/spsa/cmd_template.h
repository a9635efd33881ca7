/*
 * cmd_template.h - command templates: a shell command line with {name} fields
 * filled in by the tool (e.g. stern-spsa's `srun --ntasks=1 {cmd}`), and the
 * shell quoting that puts an argument list into one such field unchanged.
 */
#ifndef STERN_CMD_TEMPLATE_H
#define STERN_CMD_TEMPLATE_H

#include <stdbool.h>
#include <stddef.h>

/* One field of a template: {name} is replaced by value, verbatim. */
typedef struct TemplateField {
    const char *name;
    const char *value;
} TemplateField;

/* Appends `arg` to the string in out (n bytes) in single quotes (a quote in it
 * as '\''), after a space unless out is empty, so that /bin/sh reads it back
 * as the one argument `arg`. Returns 0, or -1 when it does not fit (out is
 * then left as it was). */
int cmd_template_quote(char *out, size_t n, const char *arg);

/* Writes `tmpl` to out (n bytes) with every {name} of the nfields fields
 * replaced by its value; any other text, braces included (a shell's ${VAR}),
 * is copied as it is. Returns 0, or -1 when the result does not fit. */
int cmd_template_expand(const char *tmpl, const TemplateField *fields, int nfields, char *out, size_t n);

/* Whether `tmpl` contains the field {name}. */
bool cmd_template_has(const char *tmpl, const char *name);

#endif

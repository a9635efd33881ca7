/*
 * cmd_template.c - command templates and shell quoting (cmd_template.h).
 */
#include "cmd_template.h"

#include <stdio.h>
#include <string.h>

int cmd_template_quote(char *out, size_t n, const char *arg)
{
    const size_t start = strlen(out);
    size_t len = start;
    /* A space, two quotes, the nul, and four bytes for every quote inside. */
    size_t need = (start ? 1 : 0) + strlen(arg) + 3;
    for (const char *c = arg; *c; c++)
        if (*c == '\'')
            need += 3;
    if (start + need > n)
        return -1;
    if (start)
        out[len++] = ' ';
    out[len++] = '\'';
    for (const char *c = arg; *c; c++) {
        if (*c == '\'') {
            /* Close the quote, an escaped quote, open again: '\'' */
            memcpy(out + len, "'\\''", 4);
            len += 4;
        } else {
            out[len++] = *c;
        }
    }
    out[len++] = '\'';
    out[len] = 0;
    return 0;
}

/* The field whose {name} starts at text, or NULL. */
static const TemplateField *field_at(const char *text, const TemplateField *fields, int nfields)
{
    for (int i = 0; i < nfields; i++) {
        const size_t len = strlen(fields[i].name);
        if (text[0] == '{' && !strncmp(text + 1, fields[i].name, len) && text[len + 1] == '}')
            return &fields[i];
    }
    return NULL;
}

int cmd_template_expand(const char *tmpl, const TemplateField *fields, int nfields, char *out, size_t n)
{
    size_t len = 0;
    for (const char *c = tmpl; *c;) {
        const TemplateField *f = field_at(c, fields, nfields);
        const char *piece = f ? f->value : c;
        const size_t plen = f ? strlen(f->value) : 1;
        if (len + plen + 1 > n)
            return -1;
        memcpy(out + len, piece, plen);
        len += plen;
        c += f ? strlen(f->name) + 2 : 1;
    }
    if (len + 1 > n)
        return -1;
    out[len] = 0;
    return 0;
}

bool cmd_template_has(const char *tmpl, const char *name)
{
    const TemplateField f = {name, ""};
    for (const char *c = tmpl; *c; c++)
        if (field_at(c, &f, 1))
            return true;
    return false;
}

#include "suppress.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "project.h"
#include "rule.h"

typedef enum DirKind {
    DIR_NEXT_LINE,
    DIR_LINE,
    DIR_FILE,
} DirKind;

static const char *const dir_names[] = {
    [DIR_NEXT_LINE] = "keylint-disable-next-line",
    [DIR_LINE] = "keylint-disable-line",
    [DIR_FILE] = "keylint-disable-file",
};

/* A rule id named by a directive, with its place in the comment text. */
typedef struct Token {
    const char *id;   /* in the scratch arena */
    size_t off, len;  /* byte range in the comment's text */
    const RuleDesc *rule; /* NULL when unknown */
    bool used;
} Token;

typedef struct Directive {
    DirKind kind;
    const Comment *comment;
    uint32_t first_row, last_row; /* rows it applies to (DIR_FILE: all) */
    VEC(Token) tokens;
    NameMap ids; /* id -> its first token (where a use is marked) */
    bool has_reason;
} Directive;

/* A directive that applies to a row (not DIR_FILE): by row, then in
 * directive order. */
typedef struct RowDir {
    uint32_t row;
    size_t dir;
} RowDir;

typedef struct Pass {
    Arena *scratch;
    DiagList *d;
    const FileIR *ir;
    const Config *cfg;
    Severity sev; /* the suppression rule's severity; SEV_OFF: silent */
    VEC(Directive) dirs;
    VEC(RowDir) rows;    /* sorted */
    VEC(size_t) files;   /* the DIR_FILE directives */
} Pass;

/* A position in a comment's text, counted on from the last one asked:
 * the tokens of a comment are asked for in order, so that their spans
 * cost the comment's length in all. */
typedef struct TextPos {
    const Comment *c;
    size_t i;
    uint32_t row, col;
} TextPos;

static TextPos text_pos(const Comment *c)
{
    return (TextPos){.c = c, .row = c->span.start_row, .col = c->span.start_col};
}

/* Move to byte `off` (or to the end of the text, if it is shorter). */
static void text_pos_to(TextPos *p, size_t off)
{
    if (off < p->i)
        *p = text_pos(p->c);
    for (; p->i < off && p->c->text[p->i]; p->i++) {
        const char *t = p->c->text + p->i; /* a lone "\r" ends a row too */
        if (t[0] == '\n' || (t[0] == '\r' && t[1] != '\n')) {
            p->row++;
            p->col = 0;
        } else {
            p->col++;
        }
    }
}

/* The span of bytes [off, off+len) of the comment's text. */
static Span sub_span(TextPos *p, size_t off, size_t len)
{
    Span s = p->c->span;
    text_pos_to(p, off);
    if (p->i == off) {
        s.start_row = p->row;
        s.start_col = p->col;
        s.start_byte = p->c->span.start_byte + (uint32_t)off;
    }
    TextPos e = *p;
    text_pos_to(&e, off + len);
    s.end_row = e.row;
    s.end_col = e.col;
    s.end_byte = p->c->span.start_byte + (uint32_t)(off + len);
    return s;
}

static void report(Pass *P, Span span, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void report(Pass *P, Span span, const char *fmt, ...)
{
    if (P->sev == SEV_OFF)
        return;
    va_list ap;
    va_start(ap, fmt);
    char *msg = arena_vprintf(P->scratch, fmt, ap);
    va_end(ap);
    diag_add(P->d, SUPPRESSION_RULE, P->sev, P->ir->path, span, "%s", msg);
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
           c == '\v';
}

static bool is_word(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '-' || c == '_';
}


/* The rule id closest to `id` (a likely typo), or NULL. */
static const char *closest_rule(const char *id)
{
    const char *best = NULL;
    size_t best_d = 3;
    for (const RuleDesc *const *r = keylint_rules; *r; r++) {
        size_t dist = edit_distance(id, strlen(id), (*r)->id, strlen((*r)->id));
        if (dist < best_d) {
            best_d = dist;
            best = (*r)->id;
        }
    }
    return best;
}

/* Read one comment; adds a Directive, reports malformed ones, ignores
 * comments that only mention keylint. */
static void parse_comment(Pass *P, const Comment *c)
{
    TextPos pos = text_pos(c);
    const char *t = c->text;
    size_t n = strlen(t);
    size_t i = 0, end = n;
    if (n >= 2 && t[0] == '/' && t[1] == '/') {
        i = 2;
    } else if (n >= 4 && t[0] == '/' && t[1] == '*' && t[n - 2] == '*' && t[n - 1] == '/') {
        i = 2;
        end = n - 2;
    } else {
        return;
    }
    /* whitespace, and the stars of JSDoc-style block comments */
    while (i < end && (is_space(t[i]) || (t[i] == '*' && t[0] == '/' && t[1] == '*')))
        i++;
    if (end - i < 8 || strncmp(t + i, "keylint-", 8) != 0)
        return;
    size_t w0 = i;
    while (i < end && is_word(t[i]))
        i++;
    size_t wlen = i - w0;
    int kind = -1;
    for (int k = 0; k < 3; k++)
        if (strlen(dir_names[k]) == wlen && !strncmp(t + w0, dir_names[k], wlen))
            kind = k;
    if (kind < 0 || (i < end && !is_space(t[i]))) {
        /* keylint-disable, keylint-enable, keylint-disable-next-line: ... */
        size_t wl = wlen;
        while (w0 + wl < end && !is_space(t[w0 + wl]))
            wl++;
        report(P, sub_span(&pos, w0, wl),
               "unknown directive '%.*s': keylint understands "
               "keylint-disable-next-line, keylint-disable-line and "
               "keylint-disable-file, each followed by rule ids",
               (int)wl, t + w0);
        return;
    }

    Directive dir = {.kind = (DirKind)kind, .comment = c};
    switch (dir.kind) {
    case DIR_NEXT_LINE:
        dir.first_row = dir.last_row = c->span.end_row + 1;
        break;
    case DIR_LINE:
        dir.first_row = c->span.start_row;
        dir.last_row = c->span.end_row;
        break;
    case DIR_FILE:
        dir.first_row = 0;
        dir.last_row = UINT32_MAX;
        break;
    }

    /* rule ids up to "--", then the reason */
    size_t rules_end = end;
    for (size_t k = i; k + 1 < end; k++) {
        if (t[k] == '-' && t[k + 1] == '-') {
            rules_end = k;
            break;
        }
    }
    if (rules_end < end) {
        size_t r = rules_end + 2;
        while (r < end && (is_space(t[r]) || t[r] == '*'))
            r++;
        dir.has_reason = r < end;
    }
    /* ids are separated by commas and whitespace ('*' too: the line
     * starts of a JSDoc-style comment) */
    size_t k = i;
    while (k < rules_end) {
        while (k < rules_end && (is_space(t[k]) || t[k] == ',' || t[k] == '*'))
            k++;
        size_t s = k;
        while (k < rules_end && !is_space(t[k]) && t[k] != ',' && t[k] != '*')
            k++;
        if (k == s)
            continue;
        Token tok = {
            .id = arena_strndup(P->scratch, t + s, k - s),
            .off = s,
            .len = k - s,
        };
        tok.rule = rule_find(tok.id);
        VEC_PUSH(P->scratch, &dir.tokens, tok);
        namemap_put(P->scratch, &dir.ids, tok.id, dir.tokens.n - 1);
    }

    const char *name = dir_names[dir.kind];
    if (dir.tokens.n == 0) {
        report(P, c->span,
               "%s names no rule: list the rules it suppresses, as in "
               "'%s magic-string -- reason'",
               name, name);
        return;
    }
    for (size_t j = 0; j < dir.tokens.n; j++) {
        Token *tok = &dir.tokens.v[j];
        Span sp = sub_span(&pos, tok->off, tok->len);
        if (!tok->rule) {
            const char *near = closest_rule(tok->id);
            if (near)
                report(P, sp, "unknown rule '%s' in %s (did you mean '%s'?)",
                       tok->id, name, near);
            else
                report(P, sp, "unknown rule '%s' in %s (see keylint --list-rules)",
                       tok->id, name);
            tok->used = true; /* reported once, not also as unused */
        } else if (!strcmp(tok->id, SUPPRESSION_RULE)) {
            report(P, sp,
                   "findings of the suppression rule cannot be suppressed by "
                   "a directive; turn it off under 'rules:' in .keylint.yml "
                   "instead");
            tok->used = true;
        }
    }
    if (!dir.has_reason && P->cfg && P->cfg->require_suppression_reason)
        report(P, c->span,
               "%s has no reason: add one after the rule ids, as in "
               "'%s %s -- why this is fine' (a reason is required by "
               "--require-reason or require-suppression-reason)",
               name, name, dir.tokens.v[0].id);
    VEC_PUSH(P->scratch, &P->dirs, dir);
}

static int rowdir_cmp(const void *x, const void *y)
{
    const RowDir *a = x, *b = y;
    if (a->row != b->row)
        return a->row < b->row ? -1 : 1;
    return a->dir < b->dir ? -1 : a->dir > b->dir;
}

/* Index the directives by the rows they apply to (a comment's rows are
 * few, and comments do not overlap: the lines of the file in all). */
static void index_rows(Pass *P)
{
    for (size_t k = 0; k < P->dirs.n; k++) {
        const Directive *dir = &P->dirs.v[k];
        if (dir->kind == DIR_FILE) {
            VEC_PUSH(P->scratch, &P->files, k);
            continue;
        }
        for (uint32_t r = dir->first_row;; r++) {
            VEC_PUSH(P->scratch, &P->rows, ((RowDir){r, k}));
            if (r >= dir->last_row)
                break;
        }
    }
    if (P->rows.n)
        qsort(P->rows.v, P->rows.n, sizeof *P->rows.v, rowdir_cmp);
}

/* Whether directive `k` names g's rule; marks the use. */
static bool suppresses(Pass *P, size_t k, const Diagnostic *g)
{
    Directive *dir = &P->dirs.v[k];
    size_t j;
    if (!namemap_get(&dir->ids, g->rule, &j) || !dir->tokens.v[j].rule)
        return false;
    dir->tokens.v[j].used = true;
    return true;
}

/* A token is used when it, or the first token of its id, is. */
static bool token_used(const Directive *dir, const Token *tok)
{
    size_t j;
    return tok->used || (namemap_get(&dir->ids, tok->id, &j) && dir->tokens.v[j].used);
}

static void report_unused(Pass *P, const Directive *dir, const Token *tok, TextPos *pos)
{
    const char *name = dir_names[dir->kind];
    Span sp = sub_span(pos, tok->off, tok->len);
    Severity sev = config_rule_severity(P->cfg, tok->id, tok->rule->default_severity);
    if (sev == SEV_OFF) {
        report(P, sp,
               "'%s %s' suppresses nothing: %s is off in the configuration",
               name, tok->id, tok->id);
        return;
    }
    switch (dir->kind) {
    case DIR_NEXT_LINE:
        report(P, sp,
               "'%s %s' suppresses nothing: no %s finding on line %u",
               name, tok->id, tok->id, dir->first_row + 1);
        break;
    case DIR_LINE:
        report(P, sp,
               "'%s %s' suppresses nothing: no %s finding on this line "
               "(keylint-disable-line is for the line the comment is on; "
               "keylint-disable-next-line is for the line below)",
               name, tok->id, tok->id);
        break;
    case DIR_FILE:
        report(P, sp,
               "'%s %s' suppresses nothing: no %s finding in this file",
               name, tok->id, tok->id);
        break;
    }
}

void suppress_file(DiagList *d, size_t from, size_t to, const FileIR *ir,
                   const Config *cfg)
{
    if (!ir || ir->comments.n == 0)
        return;
    Pass P = {
        .scratch = arena_new(),
        .d = d,
        .ir = ir,
        .cfg = cfg,
    };
    const RuleDesc *self = rule_find(SUPPRESSION_RULE);
    P.sev = config_rule_severity(cfg, SUPPRESSION_RULE,
                                 self ? self->default_severity : SEV_WARNING);
    for (size_t i = 0; i < ir->comments.n; i++)
        parse_comment(&P, &ir->comments.v[i]);
    index_rows(&P);

    if (to > d->items.n)
        to = d->items.n;
    for (size_t i = from; i < to; i++) {
        Diagnostic *g = &d->items.v[i];
        if (g->severity == SEV_OFF || !g->rule || !strcmp(g->rule, SUPPRESSION_RULE) ||
            !g->path || strcmp(g->path, ir->path) != 0)
            continue;
        bool hit = false;
        for (size_t f = 0; f < P.files.n; f++)
            hit |= suppresses(&P, P.files.v[f], g);
        size_t lo = 0, hi = P.rows.n;
        while (lo < hi) { /* the first directive of g's row */
            size_t mid = lo + (hi - lo) / 2;
            if (P.rows.v[mid].row < g->span.start_row)
                lo = mid + 1;
            else
                hi = mid;
        }
        for (; lo < P.rows.n && P.rows.v[lo].row == g->span.start_row; lo++)
            hit |= suppresses(&P, P.rows.v[lo].dir, g);
        if (hit)
            g->severity = SEV_OFF;
    }

    for (size_t k = 0; k < P.dirs.n; k++) {
        TextPos pos = text_pos(P.dirs.v[k].comment);
        for (size_t j = 0; j < P.dirs.v[k].tokens.n; j++)
            if (!token_used(&P.dirs.v[k], &P.dirs.v[k].tokens.v[j]))
                report_unused(&P, &P.dirs.v[k], &P.dirs.v[k].tokens.v[j], &pos);
    }
    arena_free(P.scratch);
}

void suppress_compact(DiagList *d)
{
    size_t w = 0;
    for (size_t r = 0; r < d->items.n; r++)
        if (d->items.v[r].severity != SEV_OFF)
            d->items.v[w++] = d->items.v[r];
    d->items.n = w;
}

void suppress_project(Project *p)
{
    /* Group the diagnostics by path, then give each file with directives
     * the range of its own. */
    diag_sort(&p->diags);
    size_t n = p->diags.items.n;
    for (size_t i = 0; i < p->files.n; i++) {
        const SourceFile *f = &p->files.v[i];
        if (f->removed || !f->ir || f->ir->parse_failed || f->ir->comments.n == 0)
            continue;
        const char *path = f->ir->path;
        size_t lo = 0, hi = n;
        while (lo < hi) { /* first diagnostic with path >= this one */
            size_t mid = lo + (hi - lo) / 2;
            if (strcmp(p->diags.items.v[mid].path, path) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        size_t end = lo;
        while (end < n && !strcmp(p->diags.items.v[end].path, path))
            end++;
        suppress_file(&p->diags, lo, end, f->ir, f->config);
    }
    suppress_compact(&p->diags);
}

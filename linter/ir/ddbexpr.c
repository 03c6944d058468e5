#include "ddbexpr.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

typedef enum {
    T_END,
    T_NAME,  /* attribute name, #name, :value, function or keyword */
    T_OP,    /* = < <= > >= <> */
    T_LPAREN,
    T_RPAREN,
    T_COMMA,
    T_DOT,
    T_LBRACKET,
    T_RBRACKET,
    T_OTHER,
} TokKind;

typedef struct {
    TokKind kind;
    const char *s;
    size_t n;
} Tok;

typedef struct {
    const char *p;
    Tok cur;
    const char *prev_end; /* where the token before cur ends */
} Lexer;

static void lex_next(Lexer *l)
{
    l->prev_end = l->cur.s ? l->cur.s + l->cur.n : l->p;
    while (*l->p && isspace((unsigned char)*l->p))
        l->p++;
    const char *s = l->p;
    Tok t = {T_END, s, 0};
    if (!*s) {
        l->cur = t;
        return;
    }
    unsigned char c = (unsigned char)*s;
    if (isalnum(c) || c == '_' || c == '#' || c == ':' || c >= 0x80) {
        const char *e = s + 1;
        while (*e && (isalnum((unsigned char)*e) || *e == '_' || *e == '-' ||
                      (unsigned char)*e >= 0x80))
            e++;
        t.kind = T_NAME;
        t.n = (size_t)(e - s);
    } else if (c == '<' || c == '>' || c == '=') {
        t.kind = T_OP;
        t.n = (s[1] == '=' || (c == '<' && s[1] == '>')) ? 2 : 1;
    } else {
        t.n = 1;
        t.kind = c == '(' ? T_LPAREN
               : c == ')' ? T_RPAREN
               : c == ',' ? T_COMMA
               : c == '.' ? T_DOT
               : c == '[' ? T_LBRACKET
               : c == ']' ? T_RBRACKET
                          : T_OTHER;
    }
    l->p = s + t.n;
    l->cur = t;
}

static bool tok_is(const Tok *t, const char *kw)
{
    return t->kind == T_NAME && strlen(kw) == t->n && !strncasecmp(t->s, kw, t->n);
}

static const char *tok_dup(Arena *a, const Tok *t)
{
    return arena_strndup(a, t->s, t->n);
}

/* An operand: a name with an optional path (`a.b[0]`), or a value. Only the
 * first element is kept. */
static bool parse_operand(Arena *a, Lexer *l, const char **out)
{
    if (l->cur.kind != T_NAME)
        return false;
    *out = tok_dup(a, &l->cur);
    lex_next(l);
    for (;;) {
        if (l->cur.kind == T_DOT) {
            lex_next(l);
            if (l->cur.kind != T_NAME)
                return false;
            lex_next(l);
        } else if (l->cur.kind == T_LBRACKET) {
            lex_next(l);
            if (l->cur.kind == T_NAME)
                lex_next(l);
            if (l->cur.kind != T_RBRACKET)
                return false;
            lex_next(l);
        } else {
            return true;
        }
    }
}

static CondOp op_of(const Tok *t)
{
    if (t->n == 1)
        return t->s[0] == '=' ? COND_EQ : t->s[0] == '<' ? COND_LT : COND_GT;
    if (t->s[0] == '<' && t->s[1] == '=')
        return COND_LE;
    if (t->s[0] == '>' && t->s[1] == '=')
        return COND_GE;
    return COND_NONE; /* <> is not allowed in key conditions */
}

bool ddb_parse_key_condition(Arena *a, const char *expr, KeyConds *out)
{
    Lexer l = {.p = expr};
    lex_next(&l);
    int depth = 0;
    for (;;) {
        while (l.cur.kind == T_LPAREN) {
            depth++;
            lex_next(&l);
        }
        KeyCond kc = {.offset = (uint32_t)(l.cur.s - expr)};
        if (tok_is(&l.cur, "begins_with")) {
            lex_next(&l);
            if (l.cur.kind != T_LPAREN)
                return false;
            lex_next(&l);
            if (!parse_operand(a, &l, &kc.attr) || l.cur.kind != T_COMMA)
                return false;
            lex_next(&l);
            if (!parse_operand(a, &l, &kc.values[0]) || l.cur.kind != T_RPAREN)
                return false;
            lex_next(&l);
            kc.op = COND_BEGINS_WITH;
        } else {
            if (!parse_operand(a, &l, &kc.attr))
                return false;
            if (tok_is(&l.cur, "between")) {
                lex_next(&l);
                if (!parse_operand(a, &l, &kc.values[0]) || !tok_is(&l.cur, "and"))
                    return false;
                lex_next(&l);
                if (!parse_operand(a, &l, &kc.values[1]))
                    return false;
                kc.op = COND_BETWEEN;
            } else if (l.cur.kind == T_OP) {
                kc.op = op_of(&l.cur);
                lex_next(&l);
                if (kc.op == COND_NONE || !parse_operand(a, &l, &kc.values[0]))
                    return false;
                /* `:v = attr` is legal: keep the attribute on the left. */
                if (kc.attr[0] == ':' && kc.values[0][0] != ':') {
                    const char *t = kc.attr;
                    kc.attr = kc.values[0];
                    kc.values[0] = t;
                    if (kc.op == COND_LT)
                        kc.op = COND_GT;
                    else if (kc.op == COND_GT)
                        kc.op = COND_LT;
                    else if (kc.op == COND_LE)
                        kc.op = COND_GE;
                    else if (kc.op == COND_GE)
                        kc.op = COND_LE;
                }
            } else {
                return false;
            }
        }
        kc.len = (uint32_t)(l.prev_end - expr) - kc.offset;
        VEC_PUSH(a, &out->items, kc);
        while (l.cur.kind == T_RPAREN && depth > 0) {
            depth--;
            lex_next(&l);
        }
        if (l.cur.kind == T_END)
            return depth == 0;
        if (!tok_is(&l.cur, "and"))
            return false;
        lex_next(&l);
    }
}

/* Skip a SET value: everything up to a comma at depth 0, a clause keyword,
 * or the end. */
static void skip_value(Lexer *l)
{
    int depth = 0;
    while (l->cur.kind != T_END) {
        if (depth == 0 && (l->cur.kind == T_COMMA || tok_is(&l->cur, "set") ||
                           tok_is(&l->cur, "remove") || tok_is(&l->cur, "add") ||
                           tok_is(&l->cur, "delete")))
            return;
        if (l->cur.kind == T_LPAREN)
            depth++;
        else if (l->cur.kind == T_RPAREN && depth > 0)
            depth--;
        lex_next(l);
    }
}

/* At a clause's end: a comma, another clause or the end. */
static bool value_ends(const Lexer *l)
{
    return l->cur.kind == T_END || l->cur.kind == T_COMMA || tok_is(&l->cur, "set") ||
           tok_is(&l->cur, "remove") || tok_is(&l->cur, "add") || tok_is(&l->cur, "delete");
}

bool ddb_parse_update_sets(Arena *a, const char *expr, StrList *out, StrList *values)
{
    Lexer l = {.p = expr};
    lex_next(&l);
    while (l.cur.kind != T_END) {
        enum { SET, REMOVE, ADD, DELETE } clause;
        if (tok_is(&l.cur, "set"))
            clause = SET;
        else if (tok_is(&l.cur, "remove"))
            clause = REMOVE;
        else if (tok_is(&l.cur, "add"))
            clause = ADD;
        else if (tok_is(&l.cur, "delete"))
            clause = DELETE;
        else
            return false;
        lex_next(&l);
        for (;;) {
            const char *name;
            if (!parse_operand(a, &l, &name))
                return false;
            size_t at = out->n;
            for (size_t i = 0; i < out->n; i++)
                if (!strcmp(out->v[i], name))
                    at = i;
            bool had = at < out->n;
            if (!had) {
                strlist_push(a, out, name);
                if (values)
                    strlist_push(a, values, NULL);
            }
            if (clause == SET) {
                if (l.cur.kind != T_OP || l.cur.s[0] != '=')
                    return false;
                lex_next(&l);
                /* `x = :v`: the one placeholder it takes (set twice, or
                 * to anything else: none) */
                if (values) {
                    Lexer peek = l;
                    const char *v = NULL;
                    bool one = peek.cur.kind == T_NAME && peek.cur.s[0] == ':' &&
                               parse_operand(a, &peek, &v) && value_ends(&peek);
                    values->v[at] = one && !had ? v : NULL;
                }
                /* `x = if_not_exists(x, :v)` sets x once, at creation: no change */
                Lexer peek = l;
                const char *same;
                if (tok_is(&peek.cur, "if_not_exists")) {
                    lex_next(&peek);
                    if (peek.cur.kind == T_LPAREN) {
                        lex_next(&peek);
                        if (parse_operand(a, &peek, &same) && !strcmp(same, name) && !had) {
                            out->n--;
                            if (values)
                                values->n--;
                        }
                    }
                }
                skip_value(&l);
            } else if (clause == ADD || clause == DELETE) {
                const char *v;
                if (!parse_operand(a, &l, &v))
                    return false;
                if (values)
                    values->v[at] = NULL;
            } else if (values) {
                values->v[at] = NULL;
            }
            if (l.cur.kind != T_COMMA)
                break;
            lex_next(&l);
        }
    }
    return true;
}

bool ddb_parse_update_targets(Arena *a, const char *expr, StrList *out)
{
    return ddb_parse_update_sets(a, expr, out, NULL);
}

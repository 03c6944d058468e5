/* Extraction, layer 3 (idioms): key helpers where they are called. A call
 * that passes text to a function is kept as a candidate call of a key
 * helper; resolution (project/resolve.c) settles it against the helpers
 * and key sinks the files define (toplevel.c reads the definitions, keys.c
 * the sinks). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "extract_int.h"
#include "syntax.h"

static bool is(SynNode n, const char *type) { return syn_is(n, type); }
#define field(n, name) ex_field(x, (n), (name))
#define unwrap(n) syn_unwrap(x->syn, (n))
static Span nspan(SynNode n) { return syn_span(n); }

/* A call that passes text to a function: a candidate for the function's
 * key sinks (settled by resolution). */
void ex_call_site(Ex *x, SynNode n)
{
    SynNode args = field(n, "arguments");
    SynNode fn = unwrap(field(n, "function"));
    if (syn_null(args) || (!is(fn, "identifier") && !is(fn, "member_expression")))
        return;
    bool text = false;
    uint32_t cnt = syn_count(x->syn, args);
    /* text, a variable holding text, or a call passing text (a key helper
     * given a prefix: `get(kind, formatKey('ATTRIBUTION', id))`) */
    for (uint32_t i = 0; i < cnt && !text; i++) {
        SynNode a = ex_follow(x, syn_child(x->syn, args, i), NULL, NULL);
        text = ex_is_string_like(x, a);
        SynNode inner = is(a, "call_expression") ? field(a, "arguments") : (SynNode){0};
        for (uint32_t j = 0; !syn_null(inner) && j < syn_count(x->syn, inner) && !text; j++)
            text = ex_is_string_like(x, unwrap(syn_child(x->syn, inner, j)));
    }
    if (!text)
        return;
    KeyExpr k = {.role = ROLE_KEY, .site = SITE_OBJECT, .op = -1, .span = nspan(n),
                 .build = BUILD_CALL, .call_site = true};
    ex_expr_segs(x, n, &k.segs, 0);
    /* (a field of what a call returned, `String(claimed.content)`, is no
     * call of the function that returned it) */
    if (k.segs.n != 1 || k.segs.v[0].kind != SEG_CALL || k.segs.v[0].member)
        return;
    k.segs.v[0].text = ex_inherited_callee(x, n, k.segs.v[0].text);
    VEC_PUSH(x->a, &x->ir->extracted, k);
}

/* `putItem(tableName, item)` inside `reset(tableName, item)`: reset hands
 * its parameter on; a call of reset with an object of keys writes them
 * when putItem's parameter reaches an Item (resolution follows the chain).
 * Calls of the language's and the console's objects hand nothing on. */
void ex_call_forwards(Ex *x, SynNode n)
{
    static const char *const roots[] = {"console", "JSON", "Object", "Math", "Array",
                                        "Promise", "String", "Number", "logger", "log", NULL};
    SynNode args = field(n, "arguments");
    SynNode fn = unwrap(field(n, "function"));
    if (syn_null(args) || (!is(fn, "identifier") && !is(fn, "member_expression")))
        return;
    const char *callee = ex_inherited_callee(x, n, ex_ntext(x, fn));
    for (const char *c = callee; *c; c++) /* a name: `save`, `this.repo.put` */
        if (!isalnum((unsigned char)*c) && *c != '_' && *c != '$' && *c != '.')
            return;
    for (const char *const *r = roots; *r; r++) {
        size_t len = strlen(*r);
        if (!strncmp(callee, *r, len) && (callee[len] == '.' || !callee[len]))
            return;
    }
    uint32_t cnt = syn_count(x->syn, args);
    for (uint32_t i = 0; i < cnt && i < 16; i++) {
        SynNode a = unwrap(syn_child(x->syn, args, i));
        if (is(a, "identifier"))
            ex_param_use(x, a, SITE_OBJECT, callee, i);
        else if (is(a, "object")) /* `write({ ...item, timestamp })` */
            ex_spread_param_uses(x, a, SITE_OBJECT, callee, i);
    }
}

/* _GNU_SOURCE (memmem) comes from meson.build */
#include "defer.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cache_ir.h"
#include "facts.h"
#include "modules.h"
#include "tables.h"
#include "precheck.h"
#include "walk.h"

/* A call in a key whose arguments count once a helper it may reach is
 * known; `sinks`: a call-site key's (`save('ORDER#', id)`), which counts
 * when the helper's data operations build keys. */
typedef struct PendingCall {
    const FileIR *ir;
    const Seg *call;
    bool sinks;
} PendingCall;

typedef struct Forward {
    const char *helper, *callee; /* last names */
} Forward;

typedef struct Reach {
    Arena *a;
    /* texts keys write inline, whole, and the identifier tokens in them */
    NameMap texts;
    /* the tokens alone: a literal holding one and one more character (its
     * separator, "ORDER#") counts too */
    NameMap tokens;
    /* the last names of helpers whose data operations build keys from
     * their parameters: a deferred file calling one builds keys */
    NameMap calls;
    /* the last names of all helpers */
    NameMap helpers;
    /* calls in keys whose callee is not known to be a helper (yet) */
    VEC(PendingCall) pending;
    /* helpers that hand a parameter on to another function: (the
     * helper's last name, the callee's), the helper joining `calls` when
     * the callee does (settle_forwards) */
    VEC(Forward) forwards;
    /* the module names of imports that name an index */
    NameMap stems;
    /* something was added since the deferred texts were last read */
    bool grew;
} Reach;


static void put(Reach *r, NameMap *m, const char *s, size_t n)
{
    if (!n)
        return;
    char *c = arena_strndup(r->a, s, n);
    size_t had;
    if (namemap_get(m, c, &had))
        return;
    namemap_put(r->a, m, c, 0);
    r->grew = true;
}

static size_t letters(const char *s, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += isalpha((unsigned char)s[i]) != 0;
    return k;
}

/* Where an inline text sits, which says what magic-string may look up of
 * it: an entity prefix token followed by a character or by a value, the
 * whole text of a one-segment key or of an array key's element. */
typedef enum TextAt {
    AT_LAST,     /* the last segment of a key of several */
    AT_INNER,    /* a segment of a key of several, a value may follow */
    AT_WHOLE,    /* a key's only segment, an array key's element */
    AT_ANYWHERE, /* an argument a helper inlines: anywhere in the key */
} TextAt;

/* A key's inline text: what magic-string may look up among the constants
 * (identifier tokens: a letter, then letters, digits, '_'; texts with a
 * space and anything of fewer than two letters are never looked up). */
static void add_text(Reach *r, const char *t, TextAt at)
{
    size_t n = strlen(t);
    if (strchr(t, ' ') || letters(t, n) < 2)
        return;
    if (at == AT_WHOLE || at == AT_ANYWHERE)
        put(r, &r->texts, t, n);
    for (size_t i = 0; i < n;) {
        if (!isalpha((unsigned char)t[i])) {
            i++;
            continue;
        }
        size_t j = i;
        while (j < n && text_ident_char(t[j]))
            j++;
        /* a token at the very end of a key is followed by nothing */
        bool prefix = j < n || at != AT_LAST;
        if (prefix && letters(t + i, j - i) >= 2) {
            put(r, &r->texts, t + i, j - i);
            put(r, &r->tokens, t + i, j - i);
        }
        i = j;
    }
}

static void add_pending(Reach *r, const FileIR *ir, const Seg *call, bool sinks)
{
    if (call->kind == SEG_CALL && call->text && call->nargs)
        VEC_PUSH(r->a, &r->pending, ((PendingCall){ir, call, sinks}));
}

/* The inline texts of a key's segments; the arguments of its calls wait
 * until a helper that may take them inline is known (settle_calls). */
static void add_segs(Reach *r, const FileIR *ir, const SegList *l, bool array)
{
    for (size_t i = 0; i < l->n; i++) {
        const Seg *s = &l->v[i];
        if (s->kind == SEG_TEXT && s->text && !(s->flags & SEGF_CONST))
            add_text(r, s->text,
                     array || l->n == 1 ? AT_WHOLE : i + 1 == l->n ? AT_LAST : AT_INNER);
        add_pending(r, ir, s, false);
    }
}

/* The arguments of a call a helper may inline: every text, anywhere. */
static void add_args(Reach *r, const FileIR *ir, const Seg *call)
{
    for (size_t a = 0; a < call->nargs; a++)
        for (size_t i = 0; i < call->args[a].n; i++) {
            const Seg *s = &call->args[a].v[i];
            if (s->kind == SEG_TEXT && s->text && !(s->flags & SEGF_CONST))
                add_text(r, s->text, AT_ANYWHERE);
            add_pending(r, ir, s, false);
        }
}

static const char *last_name(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot ? dot + 1 : name;
}

/* May the call reach a helper (`sinks`: one whose data operations build
 * keys)? Resolution finds it by name, through `this.`, an object or a
 * namespace, or an import that may rename it. */
static bool may_inline(const Reach *r, const PendingCall *pc)
{
    const NameMap *names = pc->sinks ? &r->calls : &r->helpers;
    size_t had;
    if (namemap_get(names, last_name(pc->call->text), &had))
        return true;
    const Import *im = fileir_import_head(pc->ir, pc->call->text);
    return im && im->imported &&
           (!strcmp(im->imported, "default") || !strcmp(im->imported, "*") ||
            namemap_get(names, last_name(im->imported), &had));
}

/* A helper that hands a parameter on to one whose data operations build
 * keys from it builds them too (`checkAndIncrement(key)` calling
 * `this.getRecord(key)`): a deferred file calling it is needed. */
static void settle_forwards(Reach *r)
{
    for (bool more = true; more;) {
        more = false;
        for (size_t i = 0; i < r->forwards.n; i++) {
            const Forward *fw = &r->forwards.v[i];
            size_t had;
            if (!namemap_get(&r->calls, fw->callee, &had) ||
                namemap_get(&r->calls, fw->helper, &had))
                continue;
            put(r, &r->calls, fw->helper, strlen(fw->helper));
            more = true;
        }
    }
}

/* The arguments of the calls found since the last round to reach a
 * helper: that helper takes them inline into the caller's key. */
static void settle_calls(Reach *r)
{
    for (size_t i = 0; i < r->pending.n;) {
        PendingCall pc = r->pending.v[i];
        if (!may_inline(r, &pc)) {
            i++;
            continue;
        }
        r->pending.v[i] = r->pending.v[--r->pending.n];
        add_args(r, pc.ir, pc.call);
    }
}

/* The name a module is imported by: "keys" for ".../keys.ts", the
 * directory's for ".../keys/index.ts"; "" when there is none. */
static const char *module_name(Arena *a, const char *path)
{
    const char *fb = strrchr(path, '/');
    fb = fb ? fb + 1 : path;
    size_t n = strcspn(fb, ".");
    if (!strncmp(fb, "index.", 6) && fb > path + 1) {
        const char *d = fb - 1, *ds = d;
        while (ds > path && ds[-1] != '/')
            ds--;
        fb = ds;
        n = (size_t)(d - ds);
    }
    return arena_strndup(a, fb, n);
}

/* What an extracted file may look for among the deferred ones. */
static void reach_file(Reach *r, const FileIR *ir)
{
    for (size_t i = 0; i < ir->extracted.n; i++) {
        const KeyExpr *k = &ir->extracted.v[i];
        if (!k->call_site)
            add_segs(r, ir, &k->segs, k->build == BUILD_ARRAY);
        else if (k->segs.n)
            add_pending(r, ir, &k->segs.v[0], true);
    }
    for (size_t i = 0; i < ir->helpers.n; i++) {
        const HelperDef *h = &ir->helpers.v[i];
        const char *last = last_name(h->name);
        size_t had;
        if (!namemap_get(&r->helpers, last, &had))
            namemap_put(r->a, &r->helpers, arena_strdup(r->a, last), 0);
        for (size_t k = 0; k < h->sinks.n; k++)
            add_segs(r, ir, &h->sinks.v[k].segs, h->sinks.v[k].build == BUILD_ARRAY);
        /* a parameter read or written as a Key or an Item: its callers'
         * objects are keys (`getItem(table, { id: { S: ... } })`) */
        bool keys = h->sinks.n > 0;
        for (size_t k = 0; k < h->param_uses.n && !keys; k++)
            keys = !h->param_uses.v[k].callee;
        for (size_t k = 0; k < h->param_uses.n && !keys; k++)
            if (h->param_uses.v[k].callee) {
                Forward fw = {arena_strdup(r->a, last),
                              arena_strdup(r->a, last_name(h->param_uses.v[k].callee))};
                VEC_PUSH(r->a, &r->forwards, fw);
            }
        if (!keys)
            continue;
        put(r, &r->calls, last, strlen(last));
    }
    /* an index named by an imported constant (`IndexName: Idx.BY_EMAIL`):
     * access.c finds the constant by the module name of the import */
    for (size_t i = 0; i < ir->ops.n; i++) {
        const Import *im =
            ir->ops.v[i].index ? fileir_import_head(ir, ir->ops.v[i].index) : NULL;
        if (!im || !im->source)
            continue;
        const char *base = strrchr(im->source, '/');
        base = base ? base + 1 : im->source;
        put(r, &r->stems, base, strcspn(base, "."));
    }
}

/* ---- reading a deferred file's text ------------------------------------ */

/* Is the literal `s` (n bytes, escapes dropped) a text keys write inline,
 * a token of one, or a token and one more character? */
static bool known_literal(const Reach *r, const char *s, size_t n)
{
    char buf[258];
    size_t m = 0, had;
    for (size_t i = 0; i < n && m + 1 < sizeof buf; i++)
        if (s[i] != '\\')
            buf[m++] = s[i];
    buf[m] = '\0';
    if (!m)
        return false;
    if (namemap_get(&r->texts, buf, &had))
        return true;
    if (m < 3 || text_ident_char(buf[m - 1]))
        return false;
    buf[m - 1] = '\0';
    return namemap_get(&r->tokens, buf, &had);
}

/* An identifier in t[from, to) whose name says it is part of the key
 * design (facts_key_like_name); TypeScript's `type X` is a keyword. */
static bool key_like_ident(const char *t, size_t from, size_t to)
{
    char buf[128];
    size_t i = from, s;
    while (text_next_ident(t, to, &i, &s)) {
        size_t k = i;
        while (k < to && (t[k] == ' ' || t[k] == '\t'))
            k++;
        bool keyword = i - s == 4 && !memcmp(t + s, "type", 4) && k > i && k < to &&
                       text_ident_char(t[k]);
        if (!keyword && i - s < sizeof buf) {
            memcpy(buf, t + s, i - s);
            buf[i - s] = '\0';
            if (facts_key_like_name(buf))
                return true;
        }
    }
    return false;
}

enum { SCAN_BACK = 1 << 16 };

static size_t skip_blank_back(const char *t, size_t i)
{
    while (i > 0 && isspace((unsigned char)t[i - 1]))
        i--;
    return i;
}

/* The `{` at t[i], not closed before the literal: does it open an object
 * (after '=', ':' or "= (") or an enum? Then *named also says whether the
 * head of the brace, back to the end of the statement, names the key
 * design. */
static bool opens_object(const char *t, size_t i, bool *named)
{
    size_t h = i;
    while (h > 0 && i - h < 512 && t[h - 1] != ';' && t[h - 1] != '}' && t[h - 1] != '{')
        h--;
    size_t b = skip_blank_back(t, i);
    bool object = b > 0 && (t[b - 1] == '=' || t[b - 1] == ':' ||
                            (t[b - 1] == '(' && (b = skip_blank_back(t, b - 1)) > 0 &&
                             t[b - 1] == '='));
    if (!object) {
        const char *e = memmem(t + h, i - h, "enum", 4);
        object = e && (e == t + h || !text_ident_char(e[-1])) && !text_ident_char(e[4]);
    }
    if (object)
        *named = *named || key_like_ident(t, h, i);
    return object;
}

/* The `{` not yet closed at the start of the line being read, in order
 * (every brace of the text counts, in strings and comments too), kept by
 * defer_note as it reads forward: the enclosing braces of a literal on
 * that line without counting back over the file for each literal. */
typedef struct Braces {
    size_t line;            /* where the line starts */
    VEC(size_t) at_line;    /* the braces open there, innermost last */
    VEC(size_t) live;       /* the same, up to the byte being read */
    size_t low;             /* live[0, low) has not changed on this line */
} Braces;

static void braces_read(Arena *a, Braces *b, const char *t, size_t i)
{
    if (t[i] == '{') {
        VEC_PUSH(a, &b->live, i);
    } else if (t[i] == '}') {
        if (b->live.n)
            b->live.n--;
        if (b->low > b->live.n)
            b->low = b->live.n;
    } else if (t[i] == '\n') {
        b->at_line.n = b->low;
        for (size_t k = b->low; k < b->live.n; k++)
            VEC_PUSH(a, &b->at_line, b->live.v[k]);
        b->low = b->live.n;
        b->line = i + 1;
    }
}

/* Could the literal at t[q] be the value of a module constant of the key
 * design (toplevel.c: `const NAME = 'X'`, a member of a module-level
 * object or enum, `NAME: 'X'`, `NAME = 'X'`) whose name, or the name of an
 * object or enum around it, says so (facts_key_like_name)? Read from the
 * text: the line up to the literal, then each enclosing `{` back to the
 * module, which must open an object (after '=', ':' or "= (") or an enum;
 * any other brace is code, whose literals are no module constant.
 * Brackets are counted back over at most 64 KiB; when that is not
 * enough, it could. `open`: the braces open where q's line starts, when
 * the reader kept them. */
static bool key_named_value(const char *t, size_t q, const Braces *open)
{
    size_t p = skip_blank_back(t, q);
    if (p == 0 || (t[p - 1] != '=' && t[p - 1] != ':'))
        return false; /* not what a constant is written with */
    size_t line = p;
    while (line > 0 && t[line - 1] != '\n')
        line--;
    bool named = key_like_ident(t, line, p);
    size_t stop = q > SCAN_BACK ? q - SCAN_BACK : 0;
    if (open && open->line == line) {
        for (size_t k = open->at_line.n; k-- > 0 && open->at_line.v[k] >= stop;)
            if (!opens_object(t, open->at_line.v[k], &named))
                return false;
        return named || stop > 0;
    }
    /* the '=' or ':' is on an earlier line: count back from its line */
    size_t depth = 0;
    for (size_t i = line; i > stop;) {
        char c = t[--i];
        if (c == '}') {
            depth++;
            continue;
        }
        if (c != '{')
            continue;
        if (depth) {
            depth--;
            continue;
        }
        if (!opens_object(t, i, &named))
            return false;
    }
    return named || stop > 0;
}

/* ---- a deferred file's note --------------------------------------------
 * Taken from its text while the text is in memory (defer_note), so that
 * the rounds below never read a file again. */
struct DeferNote {
    Arena *a;
    /* the contents of the literals a constant of the key design may hold
     * (key_named_value), escapes dropped */
    StrList lits;
    /* the names it calls (`save(`, `repo.save(`: "save"), and the names it
     * imports under another (`save as persist`: "save") */
    StrList calls;
    NameMap seen;
    /* it imports a module's default export (`import x from`) */
    bool default_import;
    /* the module specifiers it imports (`from 'x'` after `import`,
     * `require('x')`, `import('x')`) and re-exports (after `export`) */
    StrList imports, reexports;
};

static bool keyword(const char *w, size_t n)
{
    static const char *const kw[] = {"if", "for", "while", "switch", "catch", "function",
                                     "return", "typeof", "await", "new", NULL};
    for (const char *const *k = kw; *k; k++)
        if (strlen(*k) == n && !memcmp(*k, w, n))
            return true;
    return false;
}

/* At t[k] == '<': type arguments and then a call's '(' (`get<number>(`)?
 * A comparison read so (`a < b && c > (d)`) notes one call too many,
 * which only reads a file more. */
static bool type_arguments_call(const char *t, size_t len, size_t k)
{
    int depth = 0;
    for (size_t j = k; j < len && j - k < 256; j++) {
        if (t[j] == '<')
            depth++;
        else if (t[j] == '>' && (j == k || t[j - 1] != '=') && --depth == 0) {
            j++;
            while (j < len && (t[j] == ' ' || t[j] == '\t'))
                j++;
            return j < len && t[j] == '(';
        } else if (t[j] == ';' || t[j] == '(' || t[j] == ')')
            return false;
    }
    return false;
}

static void note_call(DeferNote *nt, const char *w, size_t n)
{
    char *c = arena_strndup(nt->a, w, n);
    size_t had;
    if (namemap_get(&nt->seen, c, &had))
        return;
    namemap_put(nt->a, &nt->seen, c, 0);
    strlist_push(nt->a, &nt->calls, c);
}

DeferNote *defer_note(const char *t, size_t len)
{
    DeferNote *nt;
    Arena *a = arena_new();
    nt = arena_alloc(a, sizeof *nt);
    nt->a = a;
    bool reexport = false; /* the last statement keyword was `export` */
    Arena *scratch = arena_new();
    Braces open = {0}; /* every byte but an identifier's goes by braces_read */
    for (size_t i = 0; i < len;) {
        char c = t[i];
        if (c == '\'' || c == '"' || c == '`') {
            size_t j = i + 1;
            while (j < len && j - i <= 256 && t[j] != c && t[j] != '\n')
                j += t[j] == '\\' && j + 1 < len && t[j + 1] != '\n' ? 2 : 1;
            if (j < len && t[j] == c && j > i + 1 && key_named_value(t, i, &open)) {
                char *lit = arena_alloc(a, j - i);
                size_t m = 0;
                for (size_t k = i + 1; k < j; k++)
                    if (t[k] != '\\')
                        lit[m++] = t[k];
                strlist_push(a, &nt->lits, lit);
            }
            i++; /* every quote may open a literal */
            continue;
        }
        size_t s;
        if (!text_ident_char(c) || !text_next_ident(t, len, &i, &s)) {
            braces_read(scratch, &open, t, i);
            i++;
            continue;
        }
        size_t k = i;
        while (k < len && (t[k] == ' ' || t[k] == '\t'))
            k++;
        if (k < len && (t[k] == '(' || (t[k] == '<' && type_arguments_call(t, len, k))) &&
            !keyword(t + s, i - s))
            note_call(nt, t + s, i - s);
        /* `save as persist` */
        if (k + 3 < len && !memcmp(t + k, "as", 2) && isspace((unsigned char)t[k + 2]))
            note_call(nt, t + s, i - s);
        /* a specifier: `from 'x'`, `require('x')`, `import('x')` */
        size_t q = k + (k < len && t[k] == '(' ? 1 : 0);
        bool spec_kw = (i - s == 4 && !memcmp(t + s, "from", 4)) ||
                       (q > k && ((i - s == 7 && !memcmp(t + s, "require", 7)) ||
                                  (i - s == 6 && !memcmp(t + s, "import", 6))));
        if (spec_kw && q < len && (t[q] == '\'' || t[q] == '"' || t[q] == '`')) {
            size_t e = q + 1;
            while (e < len && e - q < 512 && t[e] != t[q] && t[e] != '\n')
                e++;
            if (e < len && t[e] == t[q])
                strlist_push(a, reexport && q == k ? &nt->reexports : &nt->imports,
                             arena_strndup(a, t + q + 1, e - q - 1));
        }
        if ((i - s == 6 && !memcmp(t + s, "import", 6)) ||
            (i - s == 6 && !memcmp(t + s, "export", 6)))
            reexport = t[s] == 'e';
        /* `import persist from`, `import persist, {` */
        if (i - s == 6 && !memcmp(t + s, "import", 6) && k > i && k < len &&
            text_ident_char(t[k]) && strncmp(t + k, "type ", 5))
            nt->default_import = true;
    }
    arena_free(scratch);
    return nt;
}

void defer_note_free(DeferNote *nt)
{
    if (nt)
        arena_free(nt->a);
}

DeferNoteParts defer_note_parts(const DeferNote *nt)
{
    return (DeferNoteParts){nt->lits, nt->calls, nt->imports, nt->reexports,
                            nt->default_import};
}

DeferNote *defer_note_from_parts(const DeferNoteParts *parts)
{
    Arena *a = arena_new();
    DeferNote *nt = arena_alloc(a, sizeof *nt);
    *nt = (DeferNote){.a = a, .default_import = parts->default_import};
    for (size_t i = 0; i < parts->lits.n; i++)
        strlist_push(a, &nt->lits, arena_strdup(a, parts->lits.v[i]));
    for (size_t i = 0; i < parts->calls.n; i++)
        note_call(nt, parts->calls.v[i], strlen(parts->calls.v[i]));
    for (size_t i = 0; i < parts->imports.n; i++)
        strlist_push(a, &nt->imports, arena_strdup(a, parts->imports.v[i]));
    for (size_t i = 0; i < parts->reexports.n; i++)
        strlist_push(a, &nt->reexports, arena_strdup(a, parts->reexports.v[i]));
    return nt;
}

/* Does one of the specifiers, imported from file `from`, name a module
 * that defines or re-exports a helper building keys (`leads`)? */
static bool imports_lead(ModuleMap *mods, size_t from, const StrList *specs, const bool *leads)
{
    for (size_t i = 0; i < specs->n; i++) {
        long t = modmap_resolve(mods, from, specs->v[i]);
        if (t >= 0 && leads[t])
            return true;
    }
    return false;
}

/* May an extracted file need what the deferred file `i` defines: a
 * constant of the key design holding a text keys write inline, or a call
 * passing keys' text to a helper whose data operations build keys, which
 * it can only reach through an import? */
static bool note_needed(const Reach *r, const DeferNote *nt, ModuleMap *mods, size_t i,
                        const bool *leads)
{
    if (!nt)
        return true; /* nothing noted: read it */
    for (size_t k = 0; k < nt->lits.n; k++)
        if (known_literal(r, nt->lits.v[k], strlen(nt->lits.v[k])))
            return true;
    size_t had;
    bool calls = nt->default_import && namemap_get(&r->calls, "default", &had);
    for (size_t k = 0; k < nt->calls.n && !calls; k++)
        calls = namemap_get(&r->calls, nt->calls.v[k], &had);
    return calls && imports_lead(mods, i, &nt->imports, leads);
}

/* leads[i]: file i defines a helper whose data operations build keys
 * (or one that hands its parameter on to such a helper: r->calls), or
 * re-exports (`export ... from`) a module that leads to one, or exports an
 * instance of a class it imports from one (`export const repos = {
 * rateLimits: new RateLimitRepository() }`). */
static void compute_leads(const Project *p, const Reach *r, ModuleMap *mods, bool *leads)
{
    size_t n = p->files.n, had;
    memset(leads, 0, n * sizeof *leads);
    for (size_t i = 0; i < n; i++) {
        const FileIR *ir = p->files.v[i].removed ? NULL : p->files.v[i].ir;
        for (size_t k = 0; ir && k < ir->helpers.n && !leads[i]; k++)
            leads[i] = ir->helpers.v[k].sinks.n > 0 ||
                       namemap_get(&r->calls, last_name(ir->helpers.v[k].name), &had);
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t i = 0; i < n; i++) {
            const SourceFile *f = &p->files.v[i];
            if (leads[i] || f->removed)
                continue;
            bool lead = false;
            if (f->ir)
                for (size_t k = 0; k < f->ir->reexports.n && !lead; k++) {
                    const Import *e = &f->ir->reexports.v[k];
                    const Import *im = e->source && e->source[0]
                                           ? e
                                           : fileir_import_head(f->ir, e->imported);
                    long t = im ? modmap_resolve(mods, i, im->source) : -1;
                    lead = t >= 0 && leads[t];
                }
            else if (f->note)
                lead = imports_lead(mods, i, &f->note->reexports, leads);
            if (lead)
                leads[i] = changed = true;
        }
    }
}

/* Can resolution look a name up through this file's imports? Only for
 * what it reads of the file (keys, operations, constants, helpers, tables
 * in code, choices of constants), or through a local name the file
 * exports (`export { a }`, `export default a`: the name may be an
 * import). A file with none of these (a component that passed the
 * pre-check) does not need what it imports. */
static bool imports_read(const FileIR *ir)
{
    if (ir->extracted.n || ir->ops.n || ir->consts.n || ir->helpers.n || ir->choices.n)
        return true;
    const FileTables *ft = ir->tables;
    if (ft && (ft->set.tables.n || ft->consts.n || ft->entities.n || ft->index_calls.n))
        return true;
    for (size_t i = 0; i < ir->reexports.n; i++)
        if (!ir->reexports.v[i].source || !ir->reexports.v[i].source[0])
            return true;
    return false;
}

typedef struct Named {
    const ImportList *ims;
    bool *named;
} Named;

/* The identifier tokens of `s` (letters, digits, '_', '$', not starting
 * with a digit: `KEYS.USER`, `${tenantId}`, `keys.order(id)` give each
 * name) that an import binds. */
static void name_seen(void *ctx, const char *s)
{
    Named *nd = ctx;
    for (size_t i = 0; s[i];) {
        if (!text_ident_char(s[i])) {
            i++;
            continue;
        }
        size_t j = i;
        while (s[j] && text_ident_char(s[j]))
            j++;
        if (!isdigit((unsigned char)s[i]))
            for (size_t k = 0; k < nd->ims->n; k++) {
                const char *l = nd->ims->v[k].local;
                if (l && !strncmp(l, s + i, j - i) && !l[j - i])
                    nd->named[k] = true;
            }
        i = j;
    }
}

/* named[k]: the file's import k binds a name that something resolution
 * reads of the file names (cache_ir_each_str: every string of its IR but
 * its imports'), so the module it comes from may define what is looked
 * up; an import nothing names is not followed (a component's imports, a
 * type, a logger). None when resolution reads nothing of the file
 * (imports_read). Allocated in `a`. */
static bool *imports_named(Arena *a, const FileIR *ir)
{
    size_t n = ir->imports.n;
    bool *named = arena_alloc(a, (n ? n : 1) * sizeof *named);
    memset(named, 0, (n ? n : 1) * sizeof *named);
    if (n && imports_read(ir))
        cache_ir_each_str(ir, name_seen, &(Named){&ir->imports, named});
    return named;
}

void defer_extract_reached(Project *p, DeferExtract extract)
{
    defer_extract_reached_from(p, extract, NULL);
}

void defer_extract_reached_from(Project *p, DeferExtract extract, const bool *seed)
{
    if (!p->precheck || !p->files.n)
        return;
    Arena *a = arena_new();
    size_t n = p->files.n;
    const char **paths = arena_alloc(a, n * sizeof *paths);
    for (size_t i = 0; i < n; i++)
        paths[i] = p->files.v[i].abspath;
    ModuleMap *mods = modmap_new_in(paths, n, project_modenv(p));
    bool *read = arena_alloc(a, n * sizeof *read);
    bool *leads = arena_alloc(a, n * sizeof *leads);
    size_t *todo = arena_alloc(a, n * sizeof *todo);
    memset(read, 0, n * sizeof *read);
    /* with a seed, the other files extracted now were read before */
    for (size_t i = 0; seed && i < n; i++)
        read[i] = !seed[i] && p->files.v[i].ir;
    Reach r = {.a = a};
    /* each round reads the files extracted since the last (the first: all) */
    for (;;) {
        size_t ntodo = 0;
        for (size_t i = 0; i < n; i++) {
            const SourceFile *f = &p->files.v[i];
            if (f->removed || !f->ir || read[i])
                continue;
            read[i] = true;
            reach_file(&r, f->ir);
            const ImportList *ims = &f->ir->imports, *res = &f->ir->reexports;
            bool *named = imports_named(a, f->ir);
            for (size_t k = 0; k < res->n + ims->n; k++) {
                if (k >= res->n && !named[k - res->n])
                    continue;
                const Import *im = k < res->n ? &res->v[k] : &ims->v[k - res->n];
                long t = modmap_resolve(mods, i, im->source);
                if (t >= 0 && p->files.v[t].deferred) {
                    p->files.v[t].deferred = false;
                    todo[ntodo++] = (size_t)t;
                }
            }
        }
        settle_forwards(&r);
        settle_calls(&r);
        if (r.grew) {
            r.grew = false;
            if (r.calls.n)
                compute_leads(p, &r, mods, leads);
            for (size_t i = 0; i < n; i++) {
                SourceFile *f = &p->files.v[i];
                if (f->removed || !f->deferred)
                    continue;
                size_t had;
                const char *name = module_name(a, f->abspath);
                if (namemap_get(&r.stems, name, &had) || note_needed(&r, f->note, mods, i, leads)) {
                    f->deferred = false;
                    todo[ntodo++] = i;
                }
            }
        }
        if (!ntodo)
            break;
        extract(p, todo, ntodo);
    }
    modmap_free(mods);
    arena_free(a);
}

/* magic-string: an entity prefix or a separator written inline in a key
 * where it is used (a write, a read, a query), instead of once in a
 * constant or a key helper. */
#include <ctype.h>
#include <string.h>

#include "facts.h"
#include "keyfacts.h"
#include "rule.h"

/* Where a key is used or built for use: reads, writes, queries, and key
 * objects assembled for them. Helper bodies and entity key definitions
 * (objects a function returns) are definitions. */
static bool site_applies(KeySite s)
{
    return s == SITE_WRITE || s == SITE_READ || s == SITE_CONDITION ||
           s == SITE_OBJECT;
}

/* Keys have no whitespace: text with spaces is data (an address, a
 * sentence), not a key prefix. */
static bool has_space(const char *s)
{
    for (; *s; s++)
        if (isspace((unsigned char)*s))
            return true;
    return false;
}

enum { MAX_OTHERS = 5 }; /* other inline prefixes of a key named in its finding */

static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* Inline text the user wrote here: not a constant's value, not a helper's
 * output, not the framework's, and not the '#' a library inserts between
 * array elements. */
static bool inline_text(const KeyExpr *k, const Seg *s)
{
    if (s->kind != SEG_TEXT || !s->text || !s->text[0])
        return false;
    if (s->flags & (SEGF_CONST | SEGF_HELPER | SEGF_FRAMEWORK))
        return false;
    return !(k->build == BUILD_ARRAY && (s->flags & SEGF_ARRAY_JOIN));
}

static size_t count_letters(const char *s, size_t n)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        m += isalpha((unsigned char)s[i]) != 0;
    return m;
}

/* The neighbour of segment `i` in direction `dir`, skipping empty text;
 * NULL at either end. */
static const Seg *neighbour(const SegList *l, size_t i, int dir)
{
    for (size_t j = i;;) {
        if (dir < 0 && j == 0)
            return NULL;
        j = dir < 0 ? j - 1 : j + 1;
        if (j >= l->n)
            return NULL;
        const Seg *s = &l->v[j];
        if (s->kind == SEG_TEXT && (!s->text || !s->text[0]))
            continue;
        return s;
    }
}

static bool hole_or_const(const Seg *s)
{
    return s && (kf_seg_is_hole(s) ||
                 (s->kind == SEG_TEXT && (s->flags & SEGF_CONST)));
}

typedef struct Found {
    const char *quoted; /* the inline text shown in the message */
    const char *token;  /* the prefix token alone */
    char sep;           /* the separator after it, 0 when a value follows */
    size_t off;         /* where `quoted` starts in its segment's text */
} Found;

/* (a) An entity prefix token in segment `m` (inline text inside text part
 * `p`): [A-Za-z][A-Za-z0-9_]* with at least two letters, not glued to a
 * preceding word character, followed by a prefix separator or by a
 * value. */
static bool find_prefix(Arena *a, const KfKey *key, size_t p, size_t m,
                        const Config *cfg, Found *out)
{
    const KfPart *part = &key->parts[p];
    const char *t = part->text;
    /* where segment m starts inside the run, and ends */
    size_t base = m > part->first ? key->ends[m - 1] : 0;
    size_t end = key->ends[m];

    for (size_t i = base; i < end; i++) {
        if (!isalpha((unsigned char)t[i]) || (i > 0 && ident_char(t[i - 1])))
            continue;
        size_t j = i;
        while (j < part->len && ident_char(t[j]))
            j++;
        size_t tok_end = j;
        if (tok_end > end) /* runs into the next segment */
            break;
        if (count_letters(t + i, tok_end - i) >= 2) {
            char after = tok_end < part->len ? t[tok_end] : 0;
            bool value_follows = tok_end == part->len && p + 1 < key->n &&
                                 key->parts[p + 1].hole;
            if (kf_is_prefix_sep_char(after, cfg) || value_follows) {
                out->token = arena_strndup(a, t + i, tok_end - i);
                out->sep = value_follows ? 0 : after;
                size_t qend = tok_end + (out->sep && tok_end < end ? 1 : 0);
                out->quoted = arena_strndup(a, t + i, qend - i);
                out->off = i - base;
                return true;
            }
        }
        i = tok_end;
    }
    return false;
}

/* ---- machine-applicable edits (Diagnostic.has_edit) ----------------------
 * Proposed only when the key keeps its text: the inline text sits in a
 * template literal of the key itself, written exactly as its text (no
 * escapes, one line), and the constant that replaces it holds that text
 * at run time (facts_const_fixed: a `const`, never assigned or mutated)
 * and is the only project constant holding it (for a hard-coded
 * separator: the separator constant the project's keys use). The edit
 * writes `${NAME}` over the inline text and says where NAME must come
 * from (Diagnostic.need); the fix proof (project/fixproof.h) keeps it only
 * when NAME means that constant where it is written, and adds its
 * import. Anything else keeps the suggestion in `fix` only. */

/* `name` ("ORDER_PREFIX", "Prefix.ORDER") can be written in this file. */
static bool name_in_scope(const FileIR *ir, const char *name)
{
    char head[256];
    size_t hl = strcspn(name, ".");
    if (hl < sizeof head) {
        memcpy(head, name, hl);
        head[hl] = '\0';
        if (fileir_import(ir, head))
            return true;
    }
    return fileir_const(ir, name, false) != NULL;
}

/* A constant this file can use: its own, one it imports, or one another
 * module exports. A module-local constant of another file is not named:
 * it may hold the text by chance (`CDN_PENDING_PK = 'SYSTEM'` for one
 * item of a partition other files use for other things). */
static bool usable_const(const RuleContext *ctx, const char *text, const char *name)
{
    return name && (name_in_scope(ctx->file, name) || facts_const_module(ctx->facts, text, name));
}

/* The constant to name for `text` in this file, among the project's
 * constants of the key design that hold it: the one this file already
 * uses (declares, or imports the head of) when exactly one is, else the
 * project's (facts_const_for_text) when the file can use it. *unique:
 * no other constant could be meant (one in use here, or one in all): only
 * then is an edit proposed. */
static const char *pick_const(const RuleContext *ctx, const char *text, bool *unique)
{
    const char *names[16];
    size_t n = facts_consts_for_text(ctx->facts, text, names, 16);
    const char *here = NULL;
    size_t nhere = 0;
    for (size_t i = 0; i < n && i < 16; i++)
        if (name_in_scope(ctx->file, names[i])) {
            here = names[i];
            nhere++;
        }
    *unique = nhere == 1 || n == 1;
    if (nhere == 1)
        return here;
    const char *best = facts_const_for_text(ctx->facts, text);
    return usable_const(ctx, text, best) ? best : NULL;
}

/* `s` lower-cased without '_' and '-', into `out` (`size` bytes). */
static size_t squash(const char *s, char *out, size_t size)
{
    size_t n = 0;
    for (; *s && n + 1 < size; s++)
        if (*s != '_' && *s != '-')
            out[n++] = (char)tolower((unsigned char)*s);
    out[n] = '\0';
    return n;
}

static bool imports_module_of(const RuleContext *ctx, const char *text, const char *name);

/* Whether constant name `name` (`PROFILE_SK`, `Keys.METADATA`,
 * `TECHNICIAN_GSI_PK`) names the word `text` ('TECH_PROFILE', 'METADATA',
 * 'TECHNICIAN'): its last part, without a key suffix (_SK, _PK, _KEY,
 * _PREFIX), and the word hold one another, ignoring case and '_'. */
static bool names_word(const char *name, const char *text)
{
    const char *dot = strrchr(name, '.');
    char n[128], t[128];
    size_t nl = squash(dot ? dot + 1 : name, n, sizeof n);
    static const char *const suffixes[] = {"prefix", "key", "sk", "pk", NULL};
    for (const char *const *x = suffixes; *x; x++) {
        size_t xl = strlen(*x);
        if (nl > xl && !strcmp(n + nl - xl, *x)) {
            n[nl -= xl] = '\0';
            break;
        }
    }
    size_t tl = squash(text, t, sizeof t);
    return nl && tl && (strstr(t, n) || strstr(n, t));
}

/* The file name of `path` without its directory and last extension
 * (`src/a/service-areas.constants.ts` -> `service-areas.constants`). */
static const char *module_stem(Arena *a, const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    const char *dot = strrchr(base, '.');
    static const char *const exts[] = {".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts",
                                       ".cts", NULL};
    for (const char *const *e = exts; dot && dot != base && *e; e++)
        if (!strcmp(dot, *e))
            return arena_strndup(a, base, (size_t)(dot - base));
    return base;
}

/* Whether the file already imports something from the module that
 * exports constant `name` holding `text`: the constant is within reach. */
static bool imports_module_of(const RuleContext *ctx, const char *text, const char *name)
{
    const char *module = facts_const_module(ctx->facts, text, name);
    if (!module)
        return false;
    Arena *a = ctx->out->arena;
    const char *stem = module_stem(a, module);
    for (size_t i = 0; i < ctx->file->imports.n; i++) {
        const char *src = ctx->file->imports.v[i].source;
        if (src && src[0] == '.' && !strcmp(module_stem(a, src), stem))
            return true;
    }
    return false;
}

/* The same for a whole key written inline: a word is a key by itself,
 * so only a constant that says it is of the key design is named (used in
 * some key, or an UPPER_CASE constant named like a key part:
 * facts_whole_key_consts). */
static const char *pick_whole_key_const(const RuleContext *ctx, const char *text, bool *unique)
{
    const char *names[16];
    size_t n = facts_whole_key_consts(ctx->facts, text, names, 16);
    const char *here = NULL, *best = facts_const_for_text(ctx->facts, text);
    size_t nhere = 0;
    bool best_ok = false;
    for (size_t i = 0; i < n && i < 16; i++) {
        if (name_in_scope(ctx->file, names[i])) {
            here = names[i];
            nhere++;
        }
        best_ok |= best && !strcmp(best, names[i]);
    }
    *unique = nhere == 1 || n == 1;
    if (nhere == 1)
        return here;
    if (!best_ok)
        best = n == 1 ? names[0] : NULL;
    /* a word is a key by itself: a constant the file does not use is
     * named only when its name says it holds that word (METADATA_SK for
     * 'METADATA', not CUSTOM_FIELD_SK of another entity) */
    /* else one of a module the file already imports from */
    for (size_t i = 0; i < n && i < 16; i++)
        if (imports_module_of(ctx, text, names[i])) {
            *unique = false;
            return names[i];
        }
    return usable_const(ctx, text, best) && names_word(best, text) ? best : NULL;
}

/* Where the constant `name` holding `text` comes from for this file:
 * false when no edit can name it (its value is not proven, or nothing
 * exports it). */
static bool const_need(const RuleContext *ctx, const char *name, const char *text, FixNeed *need)
{
    const FileIR *ir = ctx->file;
    Arena *out = ctx->out->arena;
    size_t hl = strcspn(name, ".");
    char *head = arena_strndup(out, name, hl);
    const Import *im = fileir_import(ir, head);
    *need = (FixNeed){.name = head, .exported = head};
    if (fileir_const(ir, name, false) && !im) { /* the file's own */
        need->module = arena_strdup(out, ir->path);
        return facts_const_fixed(ctx->facts, text, name);
    }
    if (im && im->source && im->source[0] != '.' && im->source[0] != '/') {
        /* a package's constant the file imports (the framework's
         * KEY_SEPARATOR): its text is what resolution read for it */
        need->package = arena_strdup(out, im->source);
        need->exported = arena_strdup(out, im->imported);
        return im->imported && strcmp(im->imported, "*") && strcmp(im->imported, "default");
    }
    const char *module = facts_const_module(ctx->facts, text, name);
    need->module = module ? arena_strdup(out, module) : NULL;
    return module && facts_const_fixed(ctx->facts, text, name);
}

/* An edit of segment `s` of key `k`: replace `old` (at byte `off` of the
 * segment's text) by `text`, which writes the constant `name` holding
 * `held` (and, when sep_name is set, the separator constant after it).
 * Proposed when the segment is written as its text (no escapes, one
 * line), in a template literal, or as a whole string literal (the fix
 * proof replaces the literal, quotes and all, by a name); else the
 * finding keeps its suggestion only. */
static void propose_edit(const RuleContext *ctx, const KeyExpr *k, const Seg *s, size_t off,
                         const char *old, const char *text, const char *name, const char *held,
                         const char *sep_name, Diagnostic *d)
{
    const Span *in = k->via ? &k->via_span : &k->span;
    const Span *ss = &s->span;
    size_t tl = strlen(s->text), ol = strlen(old);
    if (ss->start_byte < in->start_byte || ss->end_byte > in->end_byte ||
        ss->end_byte - ss->start_byte != tl || ss->start_row != ss->end_row ||
        off + ol > tl || strncmp(s->text + off, old, ol))
        return;
    if (k->build != BUILD_TEMPLATE && (off || ol != tl))
        return; /* a part of a string literal: no name can stand there */
    FixNeed need[FIX_MAX_NEEDS] = {0};
    if (!const_need(ctx, name, held, &need[0]) ||
        (sep_name && !const_need(ctx, sep_name, ctx->facts->separator_const_value, &need[1])))
        return;
    Span e = *ss;
    e.start_byte += (uint32_t)off;
    e.start_col += (uint32_t)off;
    e.end_byte = e.start_byte + (uint32_t)ol;
    e.end_col = e.start_col + (uint32_t)ol;
    d->has_edit = true;
    d->edit_span = e;
    d->edit_old = arena_strdup(ctx->out->arena, old);
    d->edit_text = arena_strdup(ctx->out->arena, text);
    memcpy(d->need, need, sizeof need);
}

/* How a key built as `k` writes constant `name` (and the separator after
 * it: `sep_name`, or the character `sep`, or nothing). */
static const char *written(Arena *a, const KeyExpr *k, const char *name, const char *sep_name,
                           char sep)
{
    if (k->build == BUILD_TEMPLATE)
        return sep_name ? arena_printf(a, "${%s}${%s}", name, sep_name)
               : sep    ? arena_printf(a, "${%s}%c", name, sep)
                        : arena_printf(a, "${%s}", name);
    return sep_name ? arena_printf(a, "%s + %s", name, sep_name)
           : sep    ? arena_printf(a, "%s + '%c'", name, sep)
                    : arena_strdup(a, name);
}

/* Could another inline prefix of the key be replaced by a constant too? */
static bool has_const(const RuleContext *ctx, Arena *a, const Found *fd)
{
    bool unique;
    if (fd->sep && strlen(fd->quoted) > strlen(fd->token) &&
        pick_const(ctx, arena_printf(a, "%s%c", fd->token, fd->sep), &unique))
        return true;
    return pick_const(ctx, fd->token, &unique) != NULL;
}

/* `edit`: an edit may be proposed (no other prefix of the key has a
 * constant: the key's prefixes are reported once, so a fix of this one
 * would leave the next to another run of --fix). */
static void report_prefix(const RuleContext *ctx, Arena *a, const KeyExpr *k,
                          const Seg *s, const Found *fd, const char *render,
                          const char *others, bool edit)
{
    const ProjectFacts *f = ctx->facts;
    const char *name = NULL, *held = NULL, *sep_name = NULL;
    bool unique = false;
    char sep = 0;
    /* the separator is part of the inline text ('USER#'), not a constant
     * or a value after it (`USER${SEP}`) */
    bool sep_inline = strlen(fd->quoted) > strlen(fd->token);
    if (fd->sep && sep_inline) { /* a constant holding the prefix with its separator */
        held = arena_printf(a, "%s%c", fd->token, fd->sep);
        name = pick_const(ctx, held, &unique);
    }
    if (!name) { /* one holding the token alone: the separator stays */
        held = fd->token;
        name = pick_const(ctx, held, &unique);
        if (name && sep_inline) {
            sep = fd->sep;
            if (f && f->separator_const && f->separator_const_value &&
                f->separator_const_value[0] == fd->sep && !f->separator_const_value[1])
                sep_name = f->separator_const;
        }
    }
    const char *where = kf_role_noun(k->role);
    if (!name) {
        rule_report(ctx, s->span,
                    "inline key prefix '%s'%s in %s %s; define it once as a constant",
                    fd->quoted, others, where, render);
        return;
    }
    const char *holds = !strcmp(held, fd->quoted) ? "the same text" : arena_printf(a, "'%s'", held);
    Diagnostic *d = rule_report(ctx, s->span,
                                "inline key prefix '%s'%s in %s %s; define it once as "
                                "a constant \xe2\x80\x94 the constant %s holds %s",
                                fd->quoted, others, where, render, name, holds);
    const char *text = written(ctx->out->arena, k, name, sep_name, sep);
    d->fix = arena_printf(ctx->out->arena, "replace '%s' with %s", fd->quoted, text);
    if (!unique || !edit)
        return;
    if (sep && !sep_name) /* the separator stays as it is written */
        propose_edit(ctx, k, s, fd->off, fd->token, written(a, k, name, NULL, 0), name, held,
                     NULL, d);
    else
        propose_edit(ctx, k, s, fd->off, fd->quoted, text, name, held, sep_name, d);
}

/* (b) The separator written inline where the project has a constant. */
static bool hard_coded_separator(const KeyExpr *k, size_t i, const char *sep)
{
    const Seg *s = &k->segs.v[i];
    size_t n = strlen(s->text), m = strlen(sep);
    if (!m || n < m)
        return false;
    if (!strcmp(s->text, sep))
        return true;
    if (!strncmp(s->text, sep, m) && hole_or_const(neighbour(&k->segs, i, -1)))
        return true;
    return !strcmp(s->text + n - m, sep) &&
           hole_or_const(neighbour(&k->segs, i, +1));
}

/* Where hard_coded_separator found the separator in segment i's text. */
static size_t separator_offset(const KeyExpr *k, size_t i, const char *sep)
{
    const Seg *s = &k->segs.v[i];
    size_t n = strlen(s->text), m = strlen(sep);
    if (!strcmp(s->text, sep) ||
        (!strncmp(s->text, sep, m) && hole_or_const(neighbour(&k->segs, i, -1))))
        return 0;
    return n - m;
}

/* Inline text already reported in this file: a literal that flows into
 * several keys (`sk = `${pk}#X``) is written, and reported, once. */
typedef NumMap Reported; /* start bytes */

static bool once(Arena *a, Reported *r, const Seg *s)
{
    if (nummap_get(r, s->span.start_byte, NULL))
        return false;
    nummap_put(a, r, s->span.start_byte, 0);
    return true;
}

/* (b) reported: segment m of key k is the separator the project keeps in
 * a constant; `edit`: an edit may be proposed. */
static void report_separator(const RuleContext *ctx, const KeyExpr *k, size_t m,
                             const char *render, bool edit)
{
    const ProjectFacts *f = ctx->facts;
    const Seg *s = &k->segs.v[m];
    Diagnostic *d = rule_report(ctx, s->span, "hard-coded '%s' in %s %s where the project uses %s",
                                f->separator_const_value, kf_role_noun(k->role), render,
                                f->separator_const);
    const char *sep_text = written(ctx->out->arena, k, f->separator_const, NULL, 0);
    d->fix = arena_printf(ctx->out->arena, "replace '%s' with %s", f->separator_const_value,
                          sep_text);
    if (edit)
        propose_edit(ctx, k, s, separator_offset(k, m, f->separator_const_value),
                     f->separator_const_value, sep_text, f->separator_const,
                     f->separator_const_value, NULL, d);
}

/* A key helper's body or an entity's key definition is the single place
 * of its prefixes, not of the separator: where the project keeps the
 * separator in a constant, the separator written alone between two values
 * there (`${parts[0]}#${parts[1]}`) is reported, with a suggestion only
 * (an edit there changes what its callers' keys are read as). */
static void check_definition(const RuleContext *ctx, Arena *a, const KeyExpr *k, Reported *done)
{
    const ProjectFacts *f = ctx->facts;
    if (!f || !f->separator_const || !f->separator_const_value || !f->separator_const_value[0])
        return;
    const char *render = NULL;
    for (size_t m = 0; m < k->segs.n; m++) {
        const Seg *s = &k->segs.v[m];
        if (!inline_text(k, s) || strcmp(s->text, f->separator_const_value) ||
            !hole_or_const(neighbour(&k->segs, m, -1)) ||
            !hole_or_const(neighbour(&k->segs, m, +1)) || !once(a, done, s))
            continue;
        if (!render)
            render = seglist_label(a, &k->segs);
        report_separator(ctx, k, m, render, false);
    }
}

static void check_key(const RuleContext *ctx, Arena *a, const KeyExpr *k, Reported *done)
{
    const Config *cfg = ctx->config;
    const ProjectFacts *f = ctx->facts;
    KfKey key;
    rule_key_flat(ctx, a, k, &key);
    /* A fully literal key in an object that reaches no read or write is a
     * record (sample data, a seed), not a key being built. */
    if (k->site == SITE_OBJECT && kf_hole_count(&key) == 0)
        return;
    const char *render = NULL;
    /* The key's inline prefixes are reported once, at the first. */
    const Seg *first = NULL;
    Found first_fd = {0};
    StrBuf others; /* the next MAX_OTHERS, then how many more */
    sb_init(&others, a);
    size_t nothers = 0;
    bool others_fixable = false;

    for (size_t p = 0; p < key.n; p++) {
        const KfPart *part = &key.parts[p];
        if (part->hole)
            continue;
        for (size_t m = part->first; m < part->first + part->nsegs; m++) {
            const Seg *s = &k->segs.v[m];
            if (!inline_text(k, s) || has_space(s->text))
                continue;
            if (!render)
                render = seglist_label(a, &k->segs);
            Found fd;
            bool found = find_prefix(a, &key, p, m, cfg, &fd);
            /* A whole literal element of an array key at a query site:
             * "user" in ["user", id]. */
            if (!found && k->build == BUILD_ARRAY &&
                (k->site == SITE_READ || k->site == SITE_CONDITION) &&
                count_letters(s->text, strlen(s->text)) >= 2) {
                fd = (Found){ .quoted = s->text, .token = s->text };
                found = true;
            }
            if (found) {
                if (!first) {
                    first = s;
                    first_fd = fd;
                } else {
                    if (nothers++ < MAX_OTHERS)
                        sb_printf(&others, "%s'%s'", nothers > 1 ? ", " : "", fd.quoted);
                    others_fixable = others_fixable || has_const(ctx, a, &fd);
                }
                continue;
            }
            if (f && f->separator_const && f->separator_const_value &&
                hard_coded_separator(k, m, f->separator_const_value) && once(a, done, s))
                report_separator(ctx, k, m, render, true);
        }
    }
    /* (c) A whole key written as the text of a key-design constant:
     * `':pk': 'INVOICES'` where INVOICES_PK = 'INVOICES'. */
    if (!first && k->segs.n == 1 && kf_hole_count(&key) == 0 &&
        inline_text(k, &k->segs.v[0]) && !has_space(k->segs.v[0].text) &&
        count_letters(k->segs.v[0].text, strlen(k->segs.v[0].text)) >= 2) {
        const Seg *s = &k->segs.v[0];
        bool unique;
        const char *name = pick_whole_key_const(ctx, s->text, &unique);
        /* `const PROFILE_KEY = { pk: 'SETTINGS', ... }` read as a Key: the
         * text is the constant's own definition */
        const ConstDef *own = name ? fileir_const(ctx->file, name, false) : NULL;
        if (own && own->span.start_byte <= s->span.start_byte &&
            s->span.end_byte <= own->span.end_byte)
            name = NULL;
        if (name && once(a, done, s)) {
            Diagnostic *d = rule_report(ctx, s->span,
                                        "%s '%s' written inline where the constant %s holds "
                                        "the same text; use the constant",
                                        kf_role_noun(k->role), s->text, name);
            const char *text = written(ctx->out->arena, k, name, NULL, 0);
            d->fix = arena_printf(ctx->out->arena, "replace '%s' with %s", s->text, text);
            if (unique)
                propose_edit(ctx, k, s, 0, s->text, text, name, s->text, NULL, d);
        }
    }
    if (nothers > MAX_OTHERS)
        sb_printf(&others, " and %zu more", nothers - MAX_OTHERS);
    if (first && once(a, done, first))
        report_prefix(ctx, a, k, first, &first_fd, render,
                      nothers ? arena_printf(a, " (and %s)", sb_str(&others)) : "",
                      !others_fixable);
}

static void check(const RuleContext *ctx)
{
    const FileIR *file = ctx->file;
    if (!file || file->parse_failed)
        return;
    Arena *a = arena_new();
    Reported done = {0};
    for (size_t i = 0; i < file->keys.n; i++)
        if (site_applies(file->keys.v[i].site))
            check_key(ctx, a, &file->keys.v[i], &done);
        else if (file->keys.v[i].site == SITE_HELPER || file->keys.v[i].site == SITE_ENTITY)
            check_definition(ctx, a, &file->keys.v[i], &done);
    arena_free(a);
}

const RuleDesc rule_magic_string = {
    .id = "magic-string",
    .summary = "inline key prefix or separator literal where a constant "
               "should be used",
    .default_severity = SEV_WARNING,
    .check = check,
};

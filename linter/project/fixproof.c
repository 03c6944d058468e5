/* The fix proof (fixproof.h). */
#include "fixproof.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bindings.h"
#include "modules.h"
#include "syntax.h"
#include "walk.h"

/* How the file writes its imports: new ones follow it. */
typedef struct Style {
    char quote;      /* of the first import's module specifier */
    bool semi;       /* the last import ends with `;` */
    const char *eol; /* "\r\n" when the file's first line ends so */
    bool js_ext;     /* a relative specifier ends in .js (NodeNext) */
} Style;

/* One file with edits to prove. */
typedef struct FileProof {
    Project *p;
    size_t slot;        /* in p->files */
    const char *text;
    size_t len;
    SynTree *t;
    Bindings *b;
    Arena *a;
    SynNode last_import; /* the last top-level import statement */
    Style style;
    ModuleMap *mods;     /* every file of the project */
} FileProof;

static void drop(Diagnostic *d)
{
    d->has_edit = false;
    memset(d->insert, 0, sizeof d->insert);
}

/* ---- modules ------------------------------------------------------------- */

/* The slot of the project file `spec` names from this file, or -1. */
static long resolve_spec(FileProof *fp, const char *spec)
{
    return spec ? modmap_resolve(fp->mods, fp->slot, spec) : -1;
}

static long slot_of(const Project *p, const char *path)
{
    const SourceFile *f = path ? project_file(p, path) : NULL;
    return f ? (long)(f - p->files.v) : -1;
}

/* The directory of the nearest package.json above `abspath` ("" when
 * none), in `a`. */
static const char *package_root(Arena *a, const char *abspath)
{
    char *dir = arena_strdup(a, abspath);
    for (char *slash = strrchr(dir, '/'); slash; slash = strrchr(dir, '/')) {
        *slash = '\0';
        char *pj = arena_printf(a, "%s/package.json", dir);
        struct stat st;
        if (stat(pj, &st) == 0 && S_ISREG(st.st_mode))
            return dir;
    }
    return "";
}

/* The relative module specifier from the file at `from` to the one at
 * `to` (absolute paths): "./keys", "../shared/keys", "./constants" for
 * constants/index.ts; with `js` the ".js" a NodeNext project writes
 * ("./keys.js"). NULL for a module that has no such specifier. */
static const char *relative_specifier(Arena *a, const char *from, const char *to, bool js)
{
    size_t common = 0;
    for (size_t i = 0; from[i] && from[i] == to[i]; i++)
        if (from[i] == '/')
            common = i + 1;
    StrBuf sb;
    sb_init(&sb, a);
    size_t ups = 0;
    for (const char *s = from + common; *s; s++)
        ups += *s == '/';
    if (!ups)
        sb_append(&sb, "./");
    for (size_t i = 0; i < ups; i++)
        sb_append(&sb, "../");
    const char *rest = to + common;
    size_t n = strlen(rest);
    static const char *const exts[] = {".tsx", ".ts", ".jsx", ".js"};
    size_t cut = 0;
    for (size_t i = 0; i < sizeof exts / sizeof *exts && !cut; i++) {
        size_t el = strlen(exts[i]);
        if (n > el && !strcmp(rest + n - el, exts[i]))
            cut = el;
    }
    if (!cut || (n > 5 && !strcmp(rest + n - 5, ".d.ts")))
        return NULL; /* .mts, .cts, .mjs: their specifiers differ */
    /* TypeScript reads a backslash as a path separator, and a control
     * character is no path anyone means */
    for (const char *c = from + common; *c; c++)
        if (*c == '\\' || (unsigned char)*c < 0x20)
            return NULL;
    for (const char *c = rest; *c; c++)
        if (*c == '\\' || (unsigned char)*c < 0x20)
            return NULL;
    n -= cut;
    if (js) { /* TypeScript maps ./x.js to x.ts or x.tsx */
        sb_appendn(&sb, rest, n);
        sb_append(&sb, strcmp(rest + n, ".jsx") ? ".js" : ".jsx");
        return sb_str(&sb);
    }
    if (n >= 6 && !strncmp(rest + n - 6, "/index", 6))
        n -= 6;
    else if (n == 5 && !strncmp(rest, "index", 5))
        n = 0;
    sb_appendn(&sb, rest, n);
    const char *spec = sb_str(&sb);
    size_t sl = strlen(spec);
    if (sl > 1 && spec[sl - 1] == '/')
        spec = arena_strndup(a, spec, sl - 1);
    return spec;
}

/* `s` as a JavaScript string literal in quote `q`. */
static const char *js_string(Arena *a, const char *s, char q)
{
    StrBuf sb;
    sb_init(&sb, a);
    sb_appendn(&sb, &q, 1);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == (unsigned char)q || c == '\\')
            sb_printf(&sb, "\\%c", c);
        else if (c == '\n')
            sb_append(&sb, "\\n");
        else if (c == '\r')
            sb_append(&sb, "\\r");
        else if (c < 0x20 || c == 0x7f)
            sb_printf(&sb, "\\x%02x", c);
        else
            sb_appendn(&sb, (const char *)&c, 1);
    }
    sb_appendn(&sb, &q, 1);
    return sb_str(&sb);
}

/* ---- the file ------------------------------------------------------------ */

static bool type_only_import(const SynTree *t, SynNode imp)
{
    uint32_t nt = syn_token_count(t, imp);
    for (uint32_t i = 1; i < nt && i < 3; i++)
        if (syn_text_eq(t, syn_token(t, imp, i), "type"))
            return true;
    return false;
}

static void read_style(FileProof *fp)
{
    const SynTree *t = fp->t;
    SynNode root = syn_root(t);
    Style *st = &fp->style;
    st->quote = '\'';
    const char *nl = memchr(fp->text, '\n', fp->len);
    st->eol = nl && nl > fp->text && nl[-1] == '\r' ? "\r\n" : "\n";
    bool quoted = false;
    uint32_t cnt = syn_count(t, root);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode n = syn_child(t, root, i);
        if (!syn_is(n, "import_statement"))
            continue;
        fp->last_import = n;
        SynNode src = syn_field(t, n, "source");
        uint32_t s = syn_start(src);
        if (!quoted && !syn_null(src) && s < fp->len) {
            st->quote = fp->text[s] == '"' ? '"' : '\'';
            quoted = true;
        }
        const char *spec;
        if (syn_string_value(t, src, &spec) && spec[0] == '.') {
            size_t sl = strlen(spec);
            if ((sl > 3 && !strcmp(spec + sl - 3, ".js")) ||
                (sl > 4 && !strcmp(spec + sl - 4, ".jsx")))
                st->js_ext = true;
        }
    }
    if (!syn_null(fp->last_import)) {
        uint32_t e = syn_end(fp->last_import);
        st->semi = e > 0 && e <= fp->len && fp->text[e - 1] == ';';
    }
}

/* An import statement of the file, not type-only, that imports named
 * bindings from the module `slot` (or the package `package`): NULL node
 * when none. Its named_imports in *named. */
static SynNode import_of(FileProof *fp, long slot, const char *package, SynNode *named)
{
    const SynTree *t = fp->t;
    SynNode root = syn_root(t);
    uint32_t cnt = syn_count(t, root);
    for (uint32_t i = 0; i < cnt; i++) {
        SynNode n = syn_child(t, root, i);
        const char *spec;
        if (!syn_is(n, "import_statement") || type_only_import(t, n) ||
            !syn_string_value(t, syn_field(t, n, "source"), &spec))
            continue;
        if (package ? strcmp(spec, package) != 0 : resolve_spec(fp, spec) != slot)
            continue;
        SynNode clause = syn_child(t, n, 0);
        uint32_t cc = syn_count(t, clause);
        for (uint32_t j = 0; j < cc; j++) {
            SynNode k = syn_child(t, clause, j);
            if (syn_is(k, "named_imports")) {
                *named = k;
                return n;
            }
        }
    }
    return (SynNode){0};
}

/* Where a new import statement goes: the start of the line after the last
 * import when only blanks or a line comment follow it there, else just
 * after it (*lead: the text then starts with a line end). */
static uint32_t new_import_at(const FileProof *fp, bool *lead)
{
    uint32_t e = syn_end(fp->last_import);
    size_t i = e;
    while (i < fp->len && (fp->text[i] == ' ' || fp->text[i] == '\t'))
        i++;
    bool comment = i + 1 < fp->len && fp->text[i] == '/' && fp->text[i + 1] == '/';
    if (i >= fp->len || fp->text[i] == '\n' || fp->text[i] == '\r' || comment) {
        const char *nl = memchr(fp->text + i, '\n', fp->len - i);
        if (nl) {
            *lead = false;
            return (uint32_t)(nl - fp->text + 1);
        }
    }
    *lead = true;
    return e;
}

/* Write the import `need` asks for into *in; false when none can be. */
static bool add_import(FileProof *fp, const FixNeed *need, FixInsert *in, long mslot)
{
    const char *name = need->name;
    Arena *out = fp->p->diags.arena;
    if (bindings_free_uses(fp->b, name) > 0 || strcmp(name, need->exported))
        return false; /* the import would capture another use */
    SynNode named = {0};
    SynNode imp = import_of(fp, mslot, need->package, &named);
    if (!syn_null(imp)) { /* add the name to that import */
        uint32_t cnt = syn_count(fp->t, named);
        SynNode last = cnt ? syn_child(fp->t, named, cnt - 1) : (SynNode){0};
        if (syn_null(last)) {
            in->at = syn_start(named) + 1;
            in->text = arena_printf(out, " %s ", name);
        } else {
            in->at = syn_end(last);
            in->text = arena_printf(out, ", %s", name);
        }
        return true;
    }
    if (syn_null(fp->last_import))
        return false; /* no import to follow: the file may not be a module */
    const char *spec = need->package;
    if (!spec) {
        const SourceFile *f = &fp->p->files.v[fp->slot], *m = &fp->p->files.v[mslot];
        if (!f->abspath || !m->abspath)
            return false;
        /* never a relative path out of the file's package (into another
         * package, or one nested in it) */
        if (strcmp(package_root(fp->a, f->abspath), package_root(fp->a, m->abspath)))
            return false;
        spec = relative_specifier(fp->a, f->abspath, m->abspath, fp->style.js_ext);
        if (!spec || resolve_spec(fp, spec) != mslot)
            return false;
    }
    const char *stmt = arena_printf(fp->a, "import { %s } from %s%s", name,
                                    js_string(fp->a, spec, fp->style.quote),
                                    fp->style.semi ? ";" : "");
    bool lead;
    in->at = new_import_at(fp, &lead);
    in->text = lead ? arena_printf(out, "%s%s", fp->style.eol, stmt)
                    : arena_printf(out, "%s%s", stmt, fp->style.eol);
    return true;
}

/* `s` is a name or a dotted path of names: what may replace a string
 * literal whole. */
static bool name_path(const char *s)
{
    bool start = true;
    for (; *s; s++) {
        bool ident = (*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == '_' ||
                     *s == '$' || (!start && *s >= '0' && *s <= '9') || (*s & 0x80);
        if (*s == '.' && !start)
            start = true;
        else if (ident)
            start = false;
        else
            return false;
    }
    return !start;
}

/* Does the edit land where its text reads as intended? Adjusts an edit
 * over an object shorthand (it keeps the property's name), and one that
 * replaces the text of a string literal by a name (the literal goes, its
 * quotes with it). */
static bool edit_place(FileProof *fp, Diagnostic *d)
{
    uint32_t a = d->edit_span.start_byte, b = d->edit_span.end_byte;
    size_t ol = strlen(d->edit_old);
    if (b < a || b > fp->len || b - a != ol || memcmp(fp->text + a, d->edit_old, ol))
        return false;
    SynNode n = syn_node_for_range(fp->t, a, b);
    if (syn_null(n))
        return false;
    Arena *out = fp->p->diags.arena;
    if (!strncmp(d->edit_text, "${", 2)) /* into the text of a template */
        return syn_is(n, "string_fragment") && syn_is(syn_parent(fp->t, n), "template_string");
    if (syn_is(n, "string_fragment")) { /* the whole text of a string literal */
        SynNode str = syn_parent(fp->t, n);
        if (!syn_is(str, "string") || syn_start(str) + 1 != a || syn_end(str) != b + 1 ||
            d->edit_span.start_row != d->edit_span.end_row || !name_path(d->edit_text))
            return false;
        d->edit_span.start_byte--, d->edit_span.start_col--;
        d->edit_span.end_byte++, d->edit_span.end_col++;
        d->edit_old = arena_strndup(out, fp->text + a - 1, ol + 2);
        return true;
    }
    if (syn_start(n) != a || syn_end(n) != b)
        return false;
    if (syn_is(n, "shorthand_property_identifier")) {
        d->edit_text = arena_printf(out, "%s: %s", d->edit_old, d->edit_text);
        return true;
    }
    /* an expression in place of an expression */
    return !syn_is(n, "property_identifier") && !syn_is(n, "shorthand_property_identifier_pattern") &&
           !syn_is(n, "statement_identifier") && !syn_is(n, "string");
}

/* Does one name the edit writes mean what the rule intends? Writes the
 * import it needs into *in. */
static bool name_means(FileProof *fp, const Diagnostic *d, const FixNeed *need, FixInsert *in)
{
    const Project *p = fp->p;
    long mslot = -1;
    if (need->module) {
        mslot = slot_of(p, need->module);
        if (mslot < 0)
            return false;
    } else if (!need->package) {
        return false;
    }
    Binding bd = bindings_at(fp->b, d->edit_span.start_byte, need->name);
    switch (bd.kind) {
    case BINDING_CONST:
        return mslot == (long)fp->slot; /* the file's own constant */
    case BINDING_IMPORT:
        if (bd.type_only || !bd.imported || !bd.source || strcmp(bd.imported, need->exported))
            return false;
        return need->package ? !strcmp(bd.source, need->package)
                             : resolve_spec(fp, bd.source) == mslot;
    case BINDING_NONE:
        return mslot != (long)fp->slot && add_import(fp, need, in, mslot);
    default:
        return false;
    }
}

static bool names_mean(FileProof *fp, Diagnostic *d)
{
    for (size_t i = 0; i < FIX_MAX_NEEDS; i++)
        if (d->need[i].name && !name_means(fp, d, &d->need[i], &d->insert[i]))
            return false;
    return true;
}

/* ---- checking the result ----------------------------------------------- */

typedef struct Edit {
    uint32_t start, end;
    const char *text;
} Edit;

static int edit_cmp(const void *x, const void *y)
{
    const Edit *a = x, *b = y;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    return a->end < b->end ? -1 : a->end > b->end;
}

/* Does the file, with the edits of d[0..n) that are kept, parse with no
 * more unread regions than it does? Overlapping edits are left to the
 * fix planner (report/fix.h): here the first of them is made. The file's
 * own tree and fp->a (what was built with it) are freed before the edited
 * text is parsed, so that the two trees of a large file are never held
 * at once (fp->t and fp->a are NULL after). */
static bool parses_as_well(FileProof *fp, Diagnostic *const *d, size_t n)
{
    Edit *e = malloc(((1 + FIX_MAX_NEEDS) * n + 1) * sizeof *e);
    if (!e)
        abort();
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (!d[i]->has_edit)
            continue;
        e[k++] = (Edit){d[i]->edit_span.start_byte, d[i]->edit_span.end_byte, d[i]->edit_text};
        for (size_t j = 0; j < FIX_MAX_NEEDS; j++)
            if (d[i]->insert[j].text)
                e[k++] = (Edit){d[i]->insert[j].at, d[i]->insert[j].at, d[i]->insert[j].text};
    }
    qsort(e, k, sizeof *e, edit_cmp);
    Arena *fixed_arena = arena_new();
    StrBuf sb;
    sb_init(&sb, fixed_arena);
    uint32_t at = 0;
    for (size_t i = 0; i < k; i++) {
        if (e[i].start < at)
            continue;
        sb_appendn(&sb, fp->text + at, e[i].start - at);
        sb_append(&sb, e[i].text);
        at = e[i].end;
    }
    sb_appendn(&sb, fp->text + at, fp->len - at);
    free(e);
    const char *fixed = sb_str(&sb);
    size_t regions = syn_region_count(fp->t);
    syn_free(fp->t);
    arena_free(fp->a);
    fp->t = NULL;
    fp->a = NULL;
    SynTree *t2 = syn_parse(fixed, strlen(fixed), is_tsx_path(fp->p->files.v[fp->slot].path)
                                                      ? SYN_TSX
                                                      : SYN_TYPESCRIPT,
                            fixed_arena, NULL);
    bool ok = t2 && syn_region_count(t2) <= regions;
    syn_free(t2);
    arena_free(fixed_arena);
    return ok;
}

static void prove_file(Project *p, size_t slot, Diagnostic *const *d, size_t n, ModuleMap *mods)
{
    SourceFile *f = &p->files.v[slot];
    char *owned = NULL;
    size_t len = f->len;
    const char *text = f->text;
    if (!text) {
        Problems ignored; /* the run reported the file when it read it */
        problems_init(&ignored);
        text = owned = read_source(f->abspath ? f->abspath : f->path, &len, &ignored);
        problems_free(&ignored);
    }
    Arena *a = arena_new();
    SynTree *t = text ? syn_parse(text, len, is_tsx_path(f->path) ? SYN_TSX : SYN_TYPESCRIPT, a,
                                  NULL)
                      : NULL;
    if (!t) {
        for (size_t i = 0; i < n; i++)
            drop(d[i]);
    } else {
        FileProof fp = {.p = p, .slot = slot, .text = text, .len = len, .t = t, .a = a,
                        .mods = mods};
        fp.b = bindings_build(t, a);
        read_style(&fp);
        for (size_t i = 0; i < n; i++) {
            memset(d[i]->insert, 0, sizeof d[i]->insert);
            if (!edit_place(&fp, d[i]) || !names_mean(&fp, d[i]))
                drop(d[i]);
        }
        if (!parses_as_well(&fp, d, n)) /* frees t and a */
            for (size_t i = 0; i < n; i++)
                drop(d[i]);
        t = fp.t;
        a = fp.a;
    }
    syn_free(t);
    arena_free(a);
    free(owned);
}

static int by_path(const void *x, const void *y)
{
    const Diagnostic *a = *(Diagnostic *const *)x, *b = *(Diagnostic *const *)y;
    int c = strcmp(a->path, b->path);
    if (c)
        return c;
    return a < b ? -1 : a > b;
}

/* The edits of p->diags in `path` (all files when NULL) still to prove. */
static void prove(Project *p, const char *path)
{
    DiagList *dl = &p->diags;
    const SourceFile *only = path ? project_file(p, path) : NULL;
    if (path && !only)
        return;
    size_t n = 0;
    for (size_t i = 0; i < dl->items.n; i++) {
        const Diagnostic *d = &dl->items.v[i];
        n += d->has_edit && !d->proven && (!only || !strcmp(d->path, only->path));
    }
    if (!n)
        return;
    Diagnostic **v = malloc(n * sizeof *v);
    if (!v)
        abort();
    n = 0;
    for (size_t i = 0; i < dl->items.n; i++) {
        Diagnostic *d = &dl->items.v[i];
        if (d->has_edit && !d->proven && (!only || !strcmp(d->path, only->path)))
            v[n++] = d;
    }
    qsort(v, n, sizeof *v, by_path);
    /* module resolution over every file (the map reads `paths` while it
     * lives) */
    const char **paths = malloc((p->files.n ? p->files.n : 1) * sizeof *paths);
    if (!paths)
        abort();
    for (size_t i = 0; i < p->files.n; i++)
        paths[i] = p->files.v[i].abspath ? p->files.v[i].abspath : "";
    ModuleMap *mods = modmap_new_in(paths, p->files.n, project_modenv(p));
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && !strcmp(v[j]->path, v[i]->path))
            j++;
        long slot = slot_of(p, v[i]->path);
        if (slot < 0) {
            for (size_t k = i; k < j; k++)
                drop(v[k]);
        } else {
            prove_file(p, (size_t)slot, v + i, j - i, mods);
        }
        for (size_t k = i; k < j; k++)
            v[k]->proven = true;
        i = j;
    }
    modmap_free(mods);
    free(paths);
    free(v);
}

void fixproof_run(Project *p)
{
    prove(p, NULL);
}

void fixproof_file(Project *p, const char *path)
{
    prove(p, path);
}

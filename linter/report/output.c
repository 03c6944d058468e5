#include "output.h"

#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "report.h"
#include "rule.h"
#include "stats.h"

/* ---- shared ------------------------------------------------------------ */

static json_t *jstr(Arena *a, const char *s)
{
    json_t *j = json_string(utf8_sanitize(a, s));
    if (!j) /* cannot happen after sanitising; never let it drop a field */
        j = json_string("");
    return j;
}

static void counts(const FindingList *f, size_t *errors, size_t *warnings)
{
    *errors = *warnings = 0;
    for (size_t i = 0; i < f->items.n; i++) {
        if (f->items.v[i].diag->severity == SEV_ERROR)
            (*errors)++;
        else if (f->items.v[i].diag->severity == SEV_WARNING)
            (*warnings)++;
    }
}

static bool dump(json_t *doc, FILE *out)
{
    int rc = json_dumpf(doc, out, JSON_INDENT(2));
    if (rc == 0 && fputc('\n', out) == EOF)
        rc = -1;
    json_decref(doc);
    return rc == 0 && !ferror(out);
}

static const char *sarif_level(Severity s)
{
    return s == SEV_ERROR ? "error" : s == SEV_WARNING ? "warning" : "none";
}

/* ---- JSON -------------------------------------------------------------- */

static json_t *json_problems(Arena *a, const Problems *pr)
{
    json_t *arr = json_array();
    for (size_t i = 0; pr && i < pr->items.n; i++) {
        const Problem *p = &pr->items.v[i];
        json_t *o = json_object();
        json_object_set_new(o, "level", json_string(problem_level(p)));
        json_object_set_new(o, "path", jstr(a, p->path));
        json_object_set_new(o, "line", json_integer(p->line));
        json_object_set_new(o, "column", json_integer(p->col));
        json_object_set_new(o, "message", jstr(a, p->message));
        json_array_append_new(arr, o);
    }
    return arr;
}

static json_t *json_edit(Arena *a, uint32_t line, uint32_t col, uint32_t end_line,
                         uint32_t end_col, const char *text)
{
    json_t *e = json_object();
    json_object_set_new(e, "line", json_integer(line));
    json_object_set_new(e, "column", json_integer(col));
    json_object_set_new(e, "endLine", json_integer(end_line));
    json_object_set_new(e, "endColumn", json_integer(end_col));
    json_object_set_new(e, "replacement", jstr(a, text));
    return e;
}

/* Where the rule pages are: $KEYLINT_DOCS_URL (a URL with "{rule}", or a
 * prefix to which "<rule>.md" is added), else the docs/rules directory of
 * the source tree the binary was built in (an ancestor of the
 * executable's directory), of the rule docs installed beside it
 * (../share/doc/keylint/rules) or at KEYLINT_DOCDIR. In `a`; NULL: none. */
typedef struct DocsBase {
    const char *url; /* a URL template, or */
    const char *dir; /* a directory holding <rule>.md */
} DocsBase;

static DocsBase docs_base(Arena *a)
{
    const char *env = getenv("KEYLINT_DOCS_URL");
    if (env && *env)
        return (DocsBase){.url = env};
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    for (int up = 0; n > 0 && up < 5; up++) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (!slash || slash == exe)
            break;
        *slash = '\0';
        n = slash - exe;
        static const char *const under[] = {"docs/rules", "share/doc/keylint/rules"};
        for (size_t i = 0; i < sizeof under / sizeof *under; i++) {
            const char *dir = arena_printf(a, "%s/%s", exe, under[i]);
            if (access(arena_printf(a, "%s/magic-string.md", dir), R_OK) == 0)
                return (DocsBase){.dir = dir};
        }
    }
    if (access(KEYLINT_DOCDIR "/magic-string.md", R_OK) == 0)
        return (DocsBase){.dir = KEYLINT_DOCDIR};
    return (DocsBase){0};
}

/* The URL of rule `id`'s page (helpUri), or NULL. */
static const char *rule_doc_url(Arena *a, DocsBase b, const char *id)
{
    if (b.url) {
        const char *at = strstr(b.url, "{rule}");
        return at ? arena_printf(a, "%.*s%s%s", (int)(at - b.url), b.url, id, at + 6)
                  : arena_printf(a, "%s%s.md", b.url, id);
    }
    const char *path = b.dir ? arena_printf(a, "%s/%s.md", b.dir, id) : NULL;
    if (!path || access(path, R_OK) != 0)
        return NULL;
    return arena_printf(a, "file://%s", uri_encode_path(a, path));
}

static json_t *json_count(const StatsCount *c)
{
    json_t *o = json_object();
    json_object_set_new(o, "files", json_integer((json_int_t)c->files));
    json_object_set_new(o, "bytes", json_integer((json_int_t)c->bytes));
    return o;
}

static json_t *json_stats(const RunStats *s)
{
    json_t *o = json_object();
    json_object_set_new(o, "found", json_count(&s->found));
    json_object_set_new(o, "parsed", json_count(&s->parsed));
    json_object_set_new(o, "parsedLater", json_count(&s->later));
    json_object_set_new(o, "parsedNothingFound", json_count(&s->empty));
    json_object_set_new(o, "readOnly", json_count(&s->read_only));
    json_object_set_new(o, "skipped", json_count(&s->skipped));
    json_t *why = json_object();
    json_object_set_new(why, "tooLarge", json_integer((json_int_t)s->why.too_large));
    json_object_set_new(why, "binary", json_integer((json_int_t)s->why.binary));
    json_object_set_new(why, "notUtf8", json_integer((json_int_t)s->why.not_utf8));
    json_object_set_new(why, "unreadable", json_integer((json_int_t)s->why.unreadable));
    json_object_set_new(o, "skippedBecause", why);
    json_object_set_new(o, "syntaxErrors", json_integer((json_int_t)s->syntax_errors));
    json_object_set_new(o, "threads", json_integer((json_int_t)s->threads));
    json_t *t = json_object();
    const struct {
        const char *name;
        uint64_t ns;
    } phases[] = {
        {"walk", s->walk_ns},       {"readParseExtract", s->extract_wall_ns},
        {"read", s->read_ns},       {"parse", s->parse_ns},
        {"extract", s->extract_ns}, {"projectRules", s->analyze_ns},
        {"report", s->report_ns},   {"total", s->total_ns},
    };
    for (size_t i = 0; i < sizeof phases / sizeof *phases; i++)
        json_object_set_new(t, phases[i].name, json_real((double)phases[i].ns / 1e9));
    json_object_set_new(o, "seconds", t);
    return o;
}

bool output_json(FILE *out, const OutputInput *in)
{
    Arena *a = arena_new();
    json_t *doc = json_object();
    json_object_set_new(doc, "version", json_integer(1));
    json_t *tool = json_object();
    json_object_set_new(tool, "name", json_string("keylint"));
    json_object_set_new(tool, "version", json_string(KEYLINT_VERSION));
    json_object_set_new(doc, "tool", tool);

    DocsBase docs = docs_base(a);
    json_t *arr = json_array();
    for (size_t i = 0; i < in->findings->items.n; i++) {
        const Finding *f = &in->findings->items.v[i];
        const Diagnostic *g = f->diag;
        json_t *o = json_object();
        json_object_set_new(o, "rule", jstr(a, g->rule));
        json_object_set_new(o, "severity", json_string(severity_name(g->severity)));
        json_object_set_new(o, "message", jstr(a, g->message));
        json_object_set_new(o, "path", jstr(a, g->path));
        json_object_set_new(o, "line", json_integer(f->line));
        json_object_set_new(o, "column", json_integer(f->col));
        json_object_set_new(o, "endLine", json_integer(f->end_line));
        json_object_set_new(o, "endColumn", json_integer(f->end_col));
        json_object_set_new(o, "fingerprint", json_string(f->fingerprint));
        const char *help = g->rule ? rule_doc_url(a, docs, g->rule) : NULL;
        if (help)
            json_object_set_new(o, "helpUri", jstr(a, help));
        if (g->fix)
            json_object_set_new(o, "fix", jstr(a, g->fix));
        if (f->nrelated) {
            /* the evidence: where what the finding says is seen */
            json_t *rel = json_array();
            for (size_t r = 0; r < f->nrelated; r++) {
                const struct FindingRelated *fr = &f->related[r];
                json_t *ro = json_object();
                json_object_set_new(ro, "path", jstr(a, g->related[r].path));
                json_object_set_new(ro, "line", json_integer(fr->line));
                json_object_set_new(ro, "column", json_integer(fr->col));
                json_object_set_new(ro, "endLine", json_integer(fr->end_line));
                json_object_set_new(ro, "endColumn", json_integer(fr->end_col));
                json_object_set_new(ro, "message", jstr(a, g->related[r].message));
                json_array_append_new(rel, ro);
            }
            json_object_set_new(o, "related", rel);
        }
        if (f->has_edit) {
            /* the machine-applicable part of the fix: what --fix writes */
            json_t *edits = json_array();
            json_array_append_new(edits, json_edit(a, f->edit_line, f->edit_col,
                                                   f->edit_end_line, f->edit_end_col,
                                                   f->edit_text));
            for (size_t i = 0; i < f->ninserts; i++)
                json_array_append_new(edits, json_edit(a, f->inserts[i].line, f->inserts[i].col,
                                                       f->inserts[i].line, f->inserts[i].col,
                                                       f->inserts[i].text));
            json_object_set_new(o, "edits", edits);
            json_object_set_new(o, "applicability", json_string(f->unsafe ? "unsafe" : "safe"));
        }
        json_array_append_new(arr, o);
    }
    json_object_set_new(doc, "findings", arr);
    json_object_set_new(doc, "problems", json_problems(a, in->problems));

    size_t errors, warnings;
    counts(in->findings, &errors, &warnings);
    json_t *sum = json_object();
    json_object_set_new(sum, "errors", json_integer((json_int_t)errors));
    json_object_set_new(sum, "warnings", json_integer((json_int_t)warnings));
    json_object_set_new(sum, "filesLinted", json_integer((json_int_t)in->files_linted));
    size_t nproblems = 0, nnotes = 0;
    for (size_t i = 0; in->problems && i < in->problems->items.n; i++) {
        if (in->problems->items.v[i].kind == PROBLEM_NOTE)
            nnotes++;
        else
            nproblems++;
    }
    json_object_set_new(sum, "problems", json_integer((json_int_t)nproblems));
    json_object_set_new(sum, "notes", json_integer((json_int_t)nnotes));
    json_object_set_new(sum, "baselined", json_integer((json_int_t)in->baselined));
    if (in->seen) {
        json_object_set_new(sum, "keys", json_integer((json_int_t)in->seen->keys));
        json_object_set_new(sum, "dataOperations", json_integer((json_int_t)in->seen->ops));
        json_object_set_new(sum, "tables", json_integer((json_int_t)in->seen->tables));
    }
    json_object_set_new(doc, "summary", sum);
    if (in->stats)
        json_object_set_new(doc, "stats", json_stats(in->stats));
    bool ok = dump(doc, out);
    arena_free(a);
    return ok;
}

/* ---- SARIF ------------------------------------------------------------- */

char *uri_encode_path(Arena *a, const char *path)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t n = strlen(path);
    char *out = arena_alloc(a, n * 3 + 1);
    size_t w = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)path[i];
        bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                    (c >= '0' && c <= '9') || strchr("-._~!$&'()*+,;=:@/", c);
        if (keep && c) {
            out[w++] = (char)c;
        } else {
            out[w++] = '%';
            out[w++] = hex[c >> 4];
            out[w++] = hex[c & 15];
        }
    }
    out[w] = '\0';
    return out;
}

char *sarif_rule_name(Arena *a, const char *id)
{
    size_t n = strlen(id);
    char *out = arena_alloc(a, n + 1);
    size_t w = 0;
    bool up = true;
    for (size_t i = 0; i < n; i++) {
        char c = id[i];
        if (c == '-' || c == '_') {
            up = true;
            continue;
        }
        out[w++] = up && c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
        up = false;
    }
    out[w] = '\0';
    return out;
}

/* The first paragraph of a rule's page after its title and severity line,
 * on one line; NULL when there is none. */
static char *first_paragraph(Arena *a, const char *doc)
{
    if (!doc)
        return NULL;
    const char *p = doc;
    for (;;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        bool skip = len == 0 || p[0] == '#' || !strncmp(p, "**Default severity", 18);
        if (!skip)
            break;
        if (!nl)
            return NULL;
        p = nl + 1;
    }
    const char *e = strstr(p, "\n\n");
    size_t len = e ? (size_t)(e - p) : strlen(p);
    while (len > 0 && (p[len - 1] == '\n' || p[len - 1] == ' '))
        len--;
    char *out = arena_strndup(a, p, len);
    for (char *c = out; *c; c++)
        if (*c == '\n')
            *c = ' ';
    return out;
}

/* Text for SARIF messages: a sentence ending in a period (SARIF's
 * authoring guidance, checked by the validator). */
static char *sentence(Arena *a, const char *s)
{
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\n'))
        n--;
    if (n > 0 && (s[n - 1] == '.' || s[n - 1] == '!' || s[n - 1] == '?'))
        return arena_strndup(a, s, n);
    return arena_printf(a, "%.*s.", (int)n, s);
}

static json_t *sarif_rules(Arena *a)
{
    json_t *rules = json_array();
    DocsBase docs = docs_base(a);
    for (const RuleDesc *const *r = keylint_rules; *r; r++) {
        const char *doc = rule_docs((*r)->id);
        json_t *o = json_object();
        json_object_set_new(o, "id", json_string((*r)->id));
        /* SARIF: a name identical to the id (ignoring case, as the
         * validator compares) must be left out: "scan", "suppression" */
        const char *name = sarif_rule_name(a, (*r)->id);
        if (strcasecmp(name, (*r)->id) != 0)
            json_object_set_new(o, "name", jstr(a, name));
        json_t *sd = json_object();
        json_object_set_new(sd, "text", jstr(a, sentence(a, (*r)->summary)));
        json_object_set_new(o, "shortDescription", sd);
        const char *full = first_paragraph(a, doc);
        json_t *fd = json_object();
        json_object_set_new(fd, "text", jstr(a, sentence(a, full ? full : (*r)->summary)));
        json_object_set_new(o, "fullDescription", fd);
        json_t *help = json_object();
        const char *text = doc ? doc : arena_printf(a, "%s\n", (*r)->summary);
        json_object_set_new(help, "text", jstr(a, text));
        json_object_set_new(help, "markdown", jstr(a, text));
        json_object_set_new(o, "help", help);
        const char *uri = rule_doc_url(a, docs, (*r)->id);
        if (uri)
            json_object_set_new(o, "helpUri", jstr(a, uri));
        json_t *cfg = json_object();
        json_object_set_new(cfg, "level", json_string(sarif_level((*r)->default_severity)));
        json_object_set_new(o, "defaultConfiguration", cfg);
        json_array_append_new(rules, o);
    }
    return rules;
}

static int rule_index(const char *id)
{
    int i = 0;
    for (const RuleDesc *const *r = keylint_rules; *r; r++, i++)
        if (!strcmp((*r)->id, id))
            return i;
    return -1;
}

static json_t *artifact_location(Arena *a, const char *uri_path, bool under_root)
{
    json_t *al = json_object();
    if (under_root) {
        json_object_set_new(al, "uri", json_string(uri_encode_path(a, uri_path)));
        json_object_set_new(al, "uriBaseId", json_string("%SRCROOT%"));
    } else {
        json_object_set_new(al, "uri",
                            json_string(arena_printf(a, "file://%s",
                                                     uri_encode_path(a, uri_path))));
    }
    return al;
}

static json_t *sarif_notifications(Arena *a, const OutputInput *in)
{
    json_t *arr = json_array();
    for (size_t i = 0; in->problems && i < in->problems->items.n; i++) {
        const Problem *p = &in->problems->items.v[i];
        json_t *n = json_object();
        json_object_set_new(n, "level", json_string(problem_level(p)));
        json_t *msg = json_object();
        const char *text = p->path[0] ? arena_printf(a, "%s: %s", p->path, p->message)
                                      : p->message;
        json_object_set_new(msg, "text", jstr(a, sentence(a, text)));
        json_object_set_new(n, "message", msg);
        if (p->path[0]) {
            bool under = false;
            const char *rel = findings_relative(a, in->root, p->path, &under);
            json_t *pl = json_object();
            json_object_set_new(pl, "artifactLocation", artifact_location(a, rel, under));
            if (p->line) {
                json_t *region = json_object();
                json_object_set_new(region, "startLine", json_integer(p->line));
                if (p->col)
                    json_object_set_new(region, "startColumn", json_integer(p->col));
                json_object_set_new(pl, "region", region);
            }
            json_t *loc = json_object();
            json_object_set_new(loc, "physicalLocation", pl);
            json_t *locs = json_array();
            json_array_append_new(locs, loc);
            json_object_set_new(n, "locations", locs);
        }
        json_array_append_new(arr, n);
    }
    return arr;
}

/* A SARIF region (3.30): 1-based lines, UTF-16 columns, the end exclusive. */
static json_t *sarif_region(uint32_t line, uint32_t col, uint32_t end_line, uint32_t end_col)
{
    json_t *r = json_object();
    json_object_set_new(r, "startLine", json_integer(line));
    json_object_set_new(r, "startColumn", json_integer(col));
    json_object_set_new(r, "endLine", json_integer(end_line));
    json_object_set_new(r, "endColumn", json_integer(end_col));
    return r;
}

/* A SARIF replacement (3.57): `text` in place of `region`. */
static json_t *sarif_replacement(Arena *a, json_t *region, const char *text)
{
    json_t *ins = json_object();
    json_object_set_new(ins, "text", jstr(a, text));
    json_t *rep = json_object();
    json_object_set_new(rep, "deletedRegion", region);
    json_object_set_new(rep, "insertedContent", ins);
    return rep;
}

/* SARIF `fixes` (3.55): one fix, one artifact change: the import the
 * edit needs (an insertion before it in the file), then the edit. */
static json_t *sarif_fixes(Arena *a, const Finding *f)
{
    json_t *reps = json_array();
    for (size_t i = 0; i < f->ninserts; i++) {
        const struct FindingInsert *in = &f->inserts[i];
        json_array_append_new(reps, sarif_replacement(a,
                                                      sarif_region(in->line, in->col16, in->line,
                                                                   in->col16),
                                                      in->text));
    }
    json_array_append_new(reps, sarif_replacement(a,
                                                  sarif_region(f->edit_line, f->edit_col16,
                                                               f->edit_end_line,
                                                               f->edit_end_col16),
                                                  f->edit_text));
    json_t *change = json_object();
    json_object_set_new(change, "artifactLocation",
                        artifact_location(a, f->uri_path, f->under_root));
    json_object_set_new(change, "replacements", reps);
    json_t *changes = json_array();
    json_array_append_new(changes, change);
    json_t *desc = json_object();
    json_object_set_new(desc, "text",
                        jstr(a, arena_printf(a, "Replace '%s' with '%s'.%s%s", f->diag->edit_old,
                                             f->edit_text, f->unsafe ? " Unsafe: " : "",
                                             f->unsafe && f->diag->unsafe_why
                                                 ? f->diag->unsafe_why
                                                 : "")));
    json_t *fix = json_object();
    json_object_set_new(fix, "description", desc);
    /* as in the JSON report: "unsafe" fixes are applied only on request */
    json_object_set_new(fix, "properties",
                        json_pack("{s:s}", "applicability", f->unsafe ? "unsafe" : "safe"));
    json_object_set_new(fix, "artifactChanges", changes);
    json_t *fixes = json_array();
    json_array_append_new(fixes, fix);
    return fixes;
}

bool output_sarif(FILE *out, const OutputInput *in)
{
    Arena *a = arena_new();
    json_t *doc = json_object();
    json_object_set_new(doc, "$schema", json_string("https://json.schemastore.org/sarif-2.1.0.json"));
    json_object_set_new(doc, "version", json_string("2.1.0"));

    json_t *run = json_object();
    json_t *driver = json_object();
    json_object_set_new(driver, "name", json_string("keylint"));
    json_object_set_new(driver, "version", json_string(KEYLINT_VERSION));
    json_object_set_new(driver, "semanticVersion", json_string(KEYLINT_VERSION));
    json_object_set_new(driver, "rules", sarif_rules(a));
    json_t *tool = json_object();
    json_object_set_new(tool, "driver", driver);
    json_object_set_new(run, "tool", tool);

    json_t *inv = json_object();
    /* notes (regions not read) do not make the run unsuccessful */
    bool clean = !in->problems || (!problems_have(in->problems, PROBLEM_INPUT) &&
                                   !problems_have(in->problems, PROBLEM_CONFIG));
    json_object_set_new(inv, "executionSuccessful", json_boolean(clean));
    json_object_set_new(inv, "toolExecutionNotifications", sarif_notifications(a, in));
    json_t *invs = json_array();
    json_array_append_new(invs, inv);
    json_object_set_new(run, "invocations", invs);

    if (in->root) {
        const char *root = uri_encode_path(a, in->root);
        size_t n = strlen(root);
        json_t *base = json_object();
        json_object_set_new(base, "uri",
                            json_string(arena_printf(a, "file://%s%s", root,
                                                     n && root[n - 1] == '/' ? "" : "/")));
        json_t *bases = json_object();
        json_object_set_new(bases, "%SRCROOT%", base);
        json_object_set_new(run, "originalUriBaseIds", bases);
    }

    json_t *results = json_array();
    for (size_t i = 0; i < in->findings->items.n; i++) {
        const Finding *f = &in->findings->items.v[i];
        const Diagnostic *g = f->diag;
        json_t *r = json_object();
        json_object_set_new(r, "ruleId", jstr(a, g->rule));
        int idx = rule_index(g->rule);
        if (idx >= 0)
            json_object_set_new(r, "ruleIndex", json_integer(idx));
        json_object_set_new(r, "level", json_string(sarif_level(g->severity)));
        const char *text = sentence(a, g->message);
        if (g->fix)
            text = arena_printf(a, "%s Suggested fix: %s", text, sentence(a, g->fix));
        json_t *msg = json_object();
        json_object_set_new(msg, "text", jstr(a, text));
        json_object_set_new(r, "message", msg);

        json_t *region = sarif_region(f->line, f->col16, f->end_line, f->end_col16);
        json_t *pl = json_object();
        json_object_set_new(pl, "artifactLocation",
                            artifact_location(a, f->uri_path, f->under_root));
        json_object_set_new(pl, "region", region);
        json_t *loc = json_object();
        json_object_set_new(loc, "physicalLocation", pl);
        json_t *locs = json_array();
        json_array_append_new(locs, loc);
        json_object_set_new(r, "locations", locs);
        if (f->nrelated) {
            /* SARIF relatedLocations (3.27.22): each with an id (3.28.2)
             * and a message saying what it shows */
            json_t *rel = json_array();
            for (size_t k = 0; k < f->nrelated; k++) {
                const struct FindingRelated *fr = &f->related[k];
                json_t *rpl = json_object();
                json_object_set_new(rpl, "artifactLocation",
                                    artifact_location(a, fr->uri_path, fr->under_root));
                json_object_set_new(rpl, "region", sarif_region(fr->line, fr->col16,
                                                                fr->end_line, fr->end_col16));
                json_t *rl = json_object();
                json_object_set_new(rl, "id", json_integer((json_int_t)k + 1));
                json_object_set_new(rl, "physicalLocation", rpl);
                json_t *rm = json_object();
                json_object_set_new(rm, "text", jstr(a, sentence(a, g->related[k].message)));
                json_object_set_new(rl, "message", rm);
                json_array_append_new(rel, rl);
            }
            json_object_set_new(r, "relatedLocations", rel);
        }

        json_t *fp = json_object();
        json_object_set_new(fp, KEYLINT_FINGERPRINT_NAME, json_string(f->fingerprint));
        json_object_set_new(r, "partialFingerprints", fp);
        if (f->has_edit)
            json_object_set_new(r, "fixes", sarif_fixes(a, f));
        json_array_append_new(results, r);
    }
    json_object_set_new(run, "results", results);
    json_object_set_new(run, "columnKind", json_string("utf16CodeUnits"));

    json_t *runs = json_array();
    json_array_append_new(runs, run);
    json_object_set_new(doc, "runs", runs);
    bool ok = dump(doc, out);
    arena_free(a);
    return ok;
}

/* ---- GitHub workflow commands ------------------------------------------- */

char *github_escape(Arena *a, const char *s, bool property)
{
    size_t n = strlen(s);
    char *out = arena_alloc(a, n * 4 + 1); /* "\x1b" is the longest */
    size_t w = 0;
    for (size_t i = 0; i < n; i++) {
        const char *rep = NULL;
        switch (s[i]) {
        case '%':
            rep = "%25";
            break;
        case '\r':
            rep = "%0D";
            break;
        case '\n':
            rep = "%0A";
            break;
        case ':':
            rep = property ? "%3A" : NULL;
            break;
        case ',':
            rep = property ? "%2C" : NULL;
            break;
        default:
            break;
        }
        char esc[8];
        size_t used, k = rep ? 0 : ctl_escape(s + i, n - i, esc, &used);
        if (k) { /* another control: its escape, as text */
            memcpy(out + w, esc, k);
            w += k;
            i += used - 1;
            continue;
        }
        if (rep) {
            memcpy(out + w, rep, 3);
            w += 3;
        } else {
            out[w++] = s[i];
        }
    }
    out[w] = '\0';
    return out;
}

void output_github(FILE *out, const OutputInput *in)
{
    Arena *a = arena_new();
    for (size_t i = 0; in->problems && i < in->problems->items.n; i++) {
        const Problem *p = &in->problems->items.v[i];
        fputs(p->kind == PROBLEM_NOTE ? "::notice " : "::error ", out);
        if (p->path[0]) {
            bool under = false;
            const char *rel = findings_relative(a, in->root, p->path, &under);
            fprintf(out, "file=%s,", github_escape(a, rel, true));
            if (p->line)
                fprintf(out, "line=%u,", p->line);
            if (p->line && p->col)
                fprintf(out, "col=%u,", p->col);
        }
        fprintf(out, "title=keylint::%s\n", github_escape(a, p->message, false));
    }
    for (size_t i = 0; i < in->findings->items.n; i++) {
        const Finding *f = &in->findings->items.v[i];
        const Diagnostic *g = f->diag;
        const char *msg = g->message ? g->message : "";
        if (g->fix && !strstr(msg, g->fix)) /* not when the message says it */
            msg = arena_printf(a, "%s\nhelp: %s", msg, g->fix);
        /* the evidence, as the text report's notes (an annotation has one
         * place: the others go in its message) */
        for (size_t r = 0; r < f->nrelated; r++)
            msg = arena_printf(a, "%s\nnote: %s:%u:%u: %s", msg, f->related[r].uri_path,
                               f->related[r].line, f->related[r].col, g->related[r].message);
        fprintf(out, "::%s file=%s,line=%u,col=%u,endLine=%u,endColumn=%u,title=%s::%s\n",
                g->severity == SEV_ERROR ? "error" : "warning",
                github_escape(a, f->uri_path, true), f->line, f->col, f->end_line,
                f->end_col,
                github_escape(a, arena_printf(a, "keylint %s", g->rule), true),
                github_escape(a, msg, false));
    }
    arena_free(a);
}

/* ---- Markdown summary ---------------------------------------------------- */

/* Text safe in a Markdown table cell. */
static char *md_cell(Arena *a, const char *s)
{
    size_t n = strlen(s);
    char *out = arena_alloc(a, n * 6 + 1);
    size_t w = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        const char *rep = NULL;
        switch (c) {
        case '<':
            rep = "&lt;";
            break;
        case '>':
            rep = "&gt;";
            break;
        case '&':
            rep = "&amp;";
            break;
        case '\n':
            rep = "<br>";
            break;
        case '\r':
            rep = "";
            break;
        case '\\':
        case '`':
        case '*':
        case '_':
        case '[':
        case ']':
        case '|':
        case '#':
            out[w++] = '\\';
            out[w++] = c;
            continue;
        default:
            break;
        }
        char esc[8];
        size_t used, k = rep ? 0 : ctl_escape(s + i, n - i, esc, &used);
        if (k) { /* a control: its escape, as text */
            memcpy(out + w, esc, k);
            w += k;
            i += used - 1;
            continue;
        }
        if (rep) {
            size_t k = strlen(rep);
            memcpy(out + w, rep, k);
            w += k;
        } else {
            out[w++] = c;
        }
    }
    out[w] = '\0';
    return out;
}

typedef struct RuleCount {
    const char *rule;
    Severity sev;
    size_t count;
} RuleCount;

static int rule_count_cmp(const void *a, const void *b)
{
    const RuleCount *x = a, *y = b;
    if (x->sev != y->sev)
        return x->sev > y->sev ? -1 : 1;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    return strcmp(x->rule, y->rule);
}

static const char *plural(size_t n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

void output_markdown_summary(FILE *out, const OutputInput *in, size_t max_rows)
{
    Arena *a = arena_new();
    size_t errors, warnings, n = in->findings->items.n;
    counts(in->findings, &errors, &warnings);
    fputs("### keylint\n\n", out);
    if (n == 0)
        fprintf(out, "No findings in %zu %s.", in->files_linted,
                plural(in->files_linted, "file", "files"));
    else
        fprintf(out, "**%zu %s, %zu %s** in %zu %s.", errors,
                plural(errors, "error", "errors"), warnings,
                plural(warnings, "warning", "warnings"), in->files_linted,
                plural(in->files_linted, "file", "files"));
    if (in->baselined)
        fprintf(out, " %zu %s in the baseline %s not shown.", in->baselined,
                plural(in->baselined, "finding", "findings"),
                plural(in->baselined, "is", "are"));
    if (in->seen) {
        char seen[160];
        report_seen_phrase(seen, sizeof seen, in->seen);
        fprintf(out, " Read: %s.", seen);
    }
    fputs("\n\n", out);

    if (n) {
        RuleCount *rc = arena_alloc(a, n * sizeof *rc);
        size_t nr = 0;
        for (size_t i = 0; i < n; i++) {
            const Diagnostic *g = in->findings->items.v[i].diag;
            size_t k = 0;
            while (k < nr && !(rc[k].sev == g->severity && !strcmp(rc[k].rule, g->rule)))
                k++;
            if (k == nr)
                rc[nr++] = (RuleCount){g->rule, g->severity, 0};
            rc[k].count++;
        }
        qsort(rc, nr, sizeof *rc, rule_count_cmp);
        fputs("| rule | severity | count |\n| --- | --- | ---: |\n", out);
        for (size_t k = 0; k < nr; k++)
            fprintf(out, "| %s | %s | %zu |\n", md_cell(a, rc[k].rule),
                    severity_name(rc[k].sev), rc[k].count);
        fputs("\n", out);

        fputs("| location | rule | severity | message |\n| --- | --- | --- | --- |\n", out);
        size_t rows = n < max_rows ? n : max_rows;
        for (size_t i = 0; i < rows; i++) {
            const Finding *f = &in->findings->items.v[i];
            const Diagnostic *g = f->diag;
            fprintf(out, "| %s | %s | %s | %s |\n",
                    md_cell(a, arena_printf(a, "%s:%u:%u", f->uri_path, f->line, f->col)),
                    md_cell(a, g->rule), severity_name(g->severity),
                    md_cell(a, g->message ? g->message : ""));
        }
        if (rows < n)
            fprintf(out, "\n%zu more %s not listed here (see the annotations or the SARIF report).\n",
                    n - rows, plural(n - rows, "finding", "findings"));
        fputs("\n", out);
    }
    for (int notes = 0; notes < 2 && in->problems; notes++) {
        size_t np = 0;
        for (size_t i = 0; i < in->problems->items.n; i++)
            np += (in->problems->items.v[i].kind == PROBLEM_NOTE) == notes;
        if (!np)
            continue;
        if (notes)
            fprintf(out, "%zu %s (parts of files keylint could not read; the rest was linted):\n\n",
                    np, plural(np, "note", "notes"));
        else
            fprintf(out, "%zu input %s (files keylint could not lint):\n\n", np,
                    plural(np, "problem", "problems"));
        for (size_t i = 0; i < in->problems->items.n; i++) {
            const Problem *p = &in->problems->items.v[i];
            if ((p->kind == PROBLEM_NOTE) != notes)
                continue;
            if (p->path[0] && p->line)
                fprintf(out, "- %s:%u: %s\n", md_cell(a, p->path), p->line,
                        md_cell(a, p->message));
            else if (p->path[0])
                fprintf(out, "- %s: %s\n", md_cell(a, p->path), md_cell(a, p->message));
            else
                fprintf(out, "- %s\n", md_cell(a, p->message));
        }
        fputs("\n", out);
    }
    arena_free(a);
}

#include "keyfacts.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

/* ---- Flattening ------------------------------------------------------- */

bool kf_seg_is_hole(const Seg *s)
{
    return s->kind == SEG_REF || s->kind == SEG_CALL ||
           s->kind == SEG_UNKNOWN;
}

static bool seg_is_empty_text(const Seg *s)
{
    return s->kind == SEG_TEXT && (!s->text || !s->text[0]);
}

void kf_flatten(Arena *a, const SegList *segs, KfKey *out)
{
    out->segs = segs;
    out->n = 0;
    out->parts = segs->n ? arena_alloc(a, segs->n * sizeof *out->parts)
                         : NULL;
    out->ends = segs->n ? arena_alloc(a, segs->n * sizeof *out->ends) : NULL;
    for (size_t i = 0; i < segs->n; i++) {
        const Seg *s = &segs->v[i];
        if (seg_is_empty_text(s))
            continue;
        if (kf_seg_is_hole(s)) {
            out->parts[out->n++] = (KfPart){ .hole = true, .first = i,
                                             .nsegs = 1 };
            continue;
        }
        /* A text run: this and the following non-empty TEXT segments. */
        size_t len = 0, j = i, last = i;
        for (; j < segs->n && segs->v[j].kind == SEG_TEXT; j++) {
            if (segs->v[j].text) {
                len += strlen(segs->v[j].text);
                if (segs->v[j].text[0])
                    last = j;
            }
            out->ends[j] = len;
        }
        char *t = arena_alloc(a, len + 1), *p = t;
        for (size_t m = i; m <= last; m++) {
            if (!segs->v[m].text)
                continue;
            size_t l = strlen(segs->v[m].text);
            memcpy(p, segs->v[m].text, l);
            p += l;
        }
        *p = '\0';
        size_t digits = 0;
        while (digits < len && isdigit((unsigned char)t[len - 1 - digits]))
            digits++;
        out->parts[out->n++] = (KfPart){ .hole = false, .first = i,
                                         .nsegs = last - i + 1, .text = t,
                                         .len = len, .digits = digits };
        i = j - 1;
    }
}

const Seg *kf_text_seg_at(const KfKey *k, size_t p, size_t off,
                          size_t *seg_off)
{
    const KfPart *part = &k->parts[p];
    if (part->hole || !part->len) {
        if (seg_off)
            *seg_off = 0;
        return NULL;
    }
    /* the first segment ending after `off` (it is not empty); past the
     * end, the last non-empty one, at offset 0 */
    size_t lo = part->first, hi = part->first + part->nsegs;
    size_t want = off < part->len ? off : part->len - 1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (k->ends[mid] > want)
            hi = mid;
        else
            lo = mid + 1;
    }
    size_t start = lo > part->first ? k->ends[lo - 1] : 0;
    if (seg_off)
        *seg_off = off < part->len ? off - start : 0;
    return &k->segs->v[lo];
}

const Seg *kf_part_seg(const KfKey *k, size_t p)
{
    return &k->segs->v[k->parts[p].first];
}

size_t kf_hole_count(const KfKey *k)
{
    size_t n = 0;
    for (size_t i = 0; i < k->n; i++)
        n += k->parts[i].hole;
    return n;
}

bool kf_has_text(const KfKey *k)
{
    for (size_t i = 0; i < k->n; i++)
        if (!k->parts[i].hole)
            return true;
    return false;
}

bool kf_all_helper(const SegList *segs)
{
    if (!segs->n)
        return false;
    for (size_t i = 0; i < segs->n; i++)
        if (!(segs->v[i].flags & SEGF_HELPER))
            return false;
    return true;
}

bool kf_is_helper_output(const KeyExpr *k)
{
    if (k->site == SITE_HELPER || k->build != BUILD_CALL)
        return false;
    for (size_t i = 0; i < k->segs.n; i++)
        if (k->segs.v[i].flags & SEGF_HELPER)
            return true;
    return false;
}

bool kf_in_helper(const HelperDef *h, const KeyExpr *k)
{
    return k->span.start_byte >= h->span.start_byte && k->span.end_byte <= h->span.end_byte;
}

const HelperDef *kf_object_helper_of(const FileIR *file, const KeyExpr *k)
{
    if (k->site != SITE_ENTITY || k->op >= 0)
        return NULL;
    for (size_t i = 0; i < file->helpers.n; i++)
        if (file->helpers.v[i].fields.n && kf_in_helper(&file->helpers.v[i], k))
            return &file->helpers.v[i];
    return NULL;
}

size_t kf_start_code(const KfKey *key)
{
    if (key->n < 2 || key->parts[0].hole || !key->parts[1].hole)
        return 0;
    const KfPart *t = &key->parts[0];
    if (t->len < 2 || t->len > 4)
        return 0;
    for (size_t i = 0; i < t->len; i++)
        if (t->text[i] < 'A' || t->text[i] > 'Z')
            return 0;
    for (size_t i = t->first; i < t->first + t->nsegs; i++)
        if (key->segs->v[i].flags & SEGF_CONST)
            return 0;
    return t->len;
}

static bool is_hex(char c)
{
    return isxdigit((unsigned char)c) != 0;
}

bool kf_looks_like_id(const char *s, size_t n)
{
    /* a UUID: 8-4-4-4-12 hex digits */
    if (n == 36) {
        bool uuid = true;
        for (size_t i = 0; i < n && uuid; i++)
            uuid = (i == 8 || i == 13 || i == 18 || i == 23) ? s[i] == '-' : is_hex(s[i]);
        if (uuid)
            return true;
    }
    size_t digits = 0, hex = 0, upper_alnum = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        digits += isdigit(c) != 0;
        hex += is_hex((char)c);
        upper_alnum += isdigit(c) || isupper(c);
    }
    /* a number of six digits or more (an account, a timestamp) */
    if (n >= 6 && digits == n)
        return true;
    /* a ULID (26 upper-case alphanumerics), an ObjectId or a hash (16 or
     * more hex digits), with digits among them */
    if (digits && ((n == 26 && upper_alnum == n) || (n >= 16 && hex == n)))
        return true;
    return false;
}

/* The end of the component of t[0, n) that starts at `i`: up to a prefix
 * separator ('#', ':', '|'). */
static size_t component_end(const char *t, size_t n, size_t i)
{
    while (i < n && t[i] != '#' && t[i] != ':' && t[i] != '|')
        i++;
    return i;
}

const char *kf_shape(Arena *a, const KfKey *k)
{
    size_t len = 1;
    for (size_t i = 0; i < k->n; i++)
        len += k->parts[i].hole ? 2 : k->parts[i].len;
    char *s = arena_alloc(a, len), *p = s; /* an id becomes {}: shorter */
    for (size_t i = 0; i < k->n; i++) {
        if (k->parts[i].hole) {
            memcpy(p, "{}", 2);
            p += 2;
            continue;
        }
        /* a literal id (a sample uuid in a script) is a value, like a hole */
        const char *t = k->parts[i].text;
        size_t n = k->parts[i].len;
        for (size_t j = 0; j < n;) {
            size_t e = component_end(t, n, j);
            if (e > j && kf_looks_like_id(t + j, e - j)) {
                memcpy(p, "{}", 2);
                p += 2;
            } else {
                memcpy(p, t + j, e - j);
                p += e - j;
            }
            if (e < n)
                *p++ = t[e];
            j = e + 1;
        }
    }
    *p = '\0';
    return s;
}

bool kf_text_has_id(const KfKey *k)
{
    for (size_t i = 0; i < k->n; i++) {
        if (k->parts[i].hole)
            continue;
        const char *t = k->parts[i].text;
        size_t n = k->parts[i].len;
        for (size_t j = 0; j < n;) {
            size_t e = component_end(t, n, j);
            if (e > j && kf_looks_like_id(t + j, e - j))
                return true;
            j = e + 1;
        }
    }
    return false;
}

/* ---- Names -------------------------------------------------------------- */

static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '$';
}

const char *kf_last_component(Arena *a, const char *path)
{
    if (!path)
        return "";
    size_t end = strlen(path);
    while (end > 0 && !ident_char(path[end - 1]))
        end--;
    size_t start = end;
    while (start > 0 && ident_char(path[start - 1]))
        start--;
    return arena_strndup(a, path + start, end - start);
}

const char *kf_hole_name(Arena *a, const Seg *s)
{
    switch (s->kind) {
    case SEG_REF:
        return s->text ? s->text : "?";
    case SEG_CALL:
        return arena_printf(a, "%s()", s->text ? s->text : "?");
    case SEG_UNKNOWN:
        return s->text && s->text[0] ? s->text : "?";
    case SEG_TEXT:
    case SEG_KIND_COUNT:
        break;
    }
    return s->text ? s->text : "";
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !strcmp(s + n - m, suffix);
}

bool kf_name_ends_with_word(const char *name, const char *word)
{
    size_t n = strlen(name), m = strlen(word);
    if (!m || n < m)
        return false;
    if (strcasecmp(name + n - m, word))
        return false;
    if (n == m)
        return true;
    char before = name[n - m - 1], first = name[n - m];
    if (before == '_' || before == '-')
        return true;
    return isupper((unsigned char)first) &&
           (islower((unsigned char)before) || isdigit((unsigned char)before));
}

bool kf_name_is_tenant(Arena *a, const char *path, const Config *cfg)
{
    if (!path || !cfg)
        return false;
    const char *last = kf_last_component(a, path);
    /* tenantCode, tenant_id, currentTenant, tenantGroupCode; not the
     * tenant's display name */
    if (!last[0])
        return false;
    if (strlist_has_ci(&cfg->tenant_names, last))
        return true;
    return strcasestr(last, "tenant") && !kf_name_ends_with_word(last, "name");
}

bool kf_name_is_date(Arena *a, const char *path)
{
    static const char *const exact[] = {
        "date", "day", "days", "month", "year", "yyyy", "yy", "mm", "dd",
        "hh", "hour", "hours", "minute", "minutes", "min", "second",
        "seconds", "sec", "time", "timestamp", "ts", "datetime", "week",
        "yearmonth", "ym", "ymd", "yyyymm", "yyyymmdd", "now", "epoch",
        NULL,
    };
    static const char *const words[] = {
        "At", "Date", "Time", "Timestamp", "Day", "Month", "Year", "Hour",
        "Minute", "Second", "Week", "DateTime", NULL,
    };
    if (!path)
        return false;
    const char *last = kf_last_component(a, path);
    if (!last[0])
        return false;
    /* monthStr, dayString: a date part as text */
    size_t l = strlen(last);
    if (l > 6 && ends_with(last, "String"))
        return kf_name_is_date(a, arena_strndup(a, last, l - 6));
    if (l > 3 && ends_with(last, "Str"))
        return kf_name_is_date(a, arena_strndup(a, last, l - 3));
    for (size_t i = 0; exact[i]; i++)
        if (!strcasecmp(last, exact[i]))
            return true;
    for (size_t i = 0; words[i]; i++)
        if (strlen(last) > strlen(words[i]) && kf_name_ends_with_word(last, words[i]))
            return true;
    return false;
}

bool kf_name_is_prefix_like(Arena *a, const char *path)
{
    const char *last = kf_last_component(a, path);
    return ends_with(last, "prefix") || ends_with(last, "Prefix") ||
           ends_with(last, "PREFIX");
}

bool kf_name_is_suffix_like(Arena *a, const char *path)
{
    const char *last = kf_last_component(a, path);
    return ends_with(last, "suffix") || ends_with(last, "Suffix") ||
           ends_with(last, "SUFFIX");
}

/* ---- Holes ---------------------------------------------------------- */

bool kf_hole_is_tenant(Arena *a, const Seg *s, const Config *cfg)
{
    if (!kf_seg_is_hole(s))
        return false;
    if (s->flags & SEGF_TENANT)
        return true;
    /* A value that flowed through a variable named like a tenant, whatever
     * computed it (`const tenantId = (meta.tenantId || '').trim()`). */
    if (s->name && (s->kind == SEG_REF || s->kind == SEG_CALL) &&
        kf_name_is_tenant(a, s->name, cfg))
        return true;
    if (s->kind == SEG_UNKNOWN)
        return false;
    return s->kind == SEG_REF && kf_name_is_tenant(a, s->text, cfg);
}

/* `String(month).padStart`, `String(d.getMonth() + 1).padStart`: a name
 * in the padded receiver is a date part or a date call. */
static bool padded_date(Arena *a, const char *callee, const char *const *date_calls)
{
    const char *p = callee;
    while (*p) {
        if (!ident_char(*p) || isdigit((unsigned char)*p)) {
            p++;
            continue;
        }
        const char *b = p;
        while (ident_char(*p))
            p++;
        const char *w = arena_strndup(a, b, (size_t)(p - b));
        if (!strcmp(w, "padStart"))
            continue;
        if (kf_name_is_date(a, w))
            return true;
        for (size_t i = 0; date_calls[i]; i++)
            if (!strcmp(w, date_calls[i]))
                return true;
    }
    return false;
}

/* `year + 1`, `month - 1`: a date part moved by a number. */
static bool date_arithmetic(Arena *a, const char *t)
{
    const char *p = t;
    while (ident_char(*p) || *p == '.')
        p++;
    if (p == t)
        return false;
    const char *name = arena_strndup(a, t, (size_t)(p - t));
    while (*p == ' ')
        p++;
    if (*p != '+' && *p != '-')
        return false;
    p++;
    while (*p == ' ')
        p++;
    if (!isdigit((unsigned char)*p))
        return false;
    while (isdigit((unsigned char)*p))
        p++;
    return !*p && kf_name_is_date(a, name);
}

bool kf_hole_is_date(Arena *a, const Seg *s)
{
    static const char *const date_calls[] = {
        "toISOString", "toJSON", "toUTCString", "toDateString",
        "toLocaleDateString", "getTime", "getFullYear", "getUTCFullYear",
        "getMonth", "getUTCMonth", "getDate", "getUTCDate", "getHours",
        "getUTCHours", "getMinutes", "getSeconds", "now", "unix", NULL,
    };
    if (!kf_seg_is_hole(s))
        return false;
    if (s->flags & SEGF_DATE)
        return true;
    if (s->kind == SEG_REF)
        return kf_name_is_date(a, s->text) ||
               (s->name && kf_name_is_date(a, s->name));
    if (s->kind == SEG_UNKNOWN && s->text)
        return date_arithmetic(a, s->text);
    if (s->kind == SEG_CALL) {
        /* `part('year')`: a date's part picked by its name */
        if (s->nargs == 1 && s->args[0].n == 1 && s->args[0].v[0].kind == SEG_TEXT &&
            kf_name_is_date(a, s->args[0].v[0].text))
            return true;
        const char *last = kf_last_component(a, s->text);
        for (size_t i = 0; date_calls[i]; i++)
            if (!strcmp(last, date_calls[i]))
                return true;
        /* held by a variable named like a date part (`const monthStr =
         * String(month).padStart(2, '0')`), or a date part padded */
        if (s->name && kf_name_is_date(a, s->name))
            return true;
        if (!strcmp(last, "padStart") && s->text)
            return padded_date(a, s->text, date_calls);
    }
    return false;
}

bool kf_hole_is_separator(Arena *a, const Seg *s)
{
    if (s->kind != SEG_REF || !s->text)
        return false;
    const char *last = kf_last_component(a, s->text);
    bool letters = false;
    for (const char *p = last; *p; p++) {
        if (islower((unsigned char)*p))
            return false;
        letters |= isupper((unsigned char)*p) != 0;
    }
    return letters && (strstr(last, "SEP") || strstr(last, "DELIM"));
}

static bool seglist_has_tenant(Arena *a, const SegList *l, const Config *cfg)
{
    for (size_t i = 0; i < l->n; i++) {
        const Seg *s = &l->v[i];
        if (kf_hole_is_tenant(a, s, cfg))
            return true;
        if (s->kind == SEG_TEXT && (s->flags & SEGF_TENANT))
            return true;
        if (s->kind == SEG_CALL && kf_call_has_tenant_arg(a, s, cfg))
            return true;
    }
    return false;
}

bool kf_call_has_tenant_arg(Arena *a, const Seg *s, const Config *cfg)
{
    if (s->kind != SEG_CALL || !s->args)
        return false;
    for (size_t i = 0; i < s->nargs; i++)
        if (seglist_has_tenant(a, &s->args[i], cfg))
            return true;
    return false;
}

/* ---- Tenants ------------------------------------------------------------ */

const Seg *kf_tenant_hole(Arena *a, const KfKey *k, const Config *cfg)
{
    for (size_t i = 0; i < k->n; i++) {
        if (!k->parts[i].hole)
            continue;
        const Seg *s = kf_part_seg(k, i);
        if (kf_hole_is_tenant(a, s, cfg) || kf_call_has_tenant_arg(a, s, cfg))
            return s;
    }
    return NULL;
}

bool kf_has_common_tenant(const KfKey *k, const Config *cfg)
{
    for (size_t i = 0; i < k->n; i++) {
        const KfPart *p = &k->parts[i];
        if (p->hole)
            continue;
        for (size_t m = p->first; m < p->first + p->nsegs; m++)
            if (k->segs->v[m].flags & (SEGF_TENANT | SEGF_COMMON_TENANT))
                return true;
        if (!cfg)
            continue;
        /* Components: runs between boundary separator characters. */
        size_t start = 0;
        for (size_t j = 0; j <= p->len; j++) {
            if (j < p->len && !kf_is_boundary_char(p->text[j], cfg))
                continue;
            if (j > start) {
                for (size_t c = 0; c < cfg->tenant_common.n; c++) {
                    const char *t = cfg->tenant_common.v[c];
                    if (strlen(t) == j - start &&
                        !strncasecmp(p->text + start, t, j - start))
                        return true;
                }
            }
            start = j + 1;
        }
    }
    return false;
}

bool kf_has_tenant(Arena *a, const KfKey *k, const Config *cfg)
{
    return kf_tenant_hole(a, k, cfg) || kf_has_common_tenant(k, cfg);
}

/* ---- Separators ------------------------------------------------------- */

bool kf_is_boundary_char(char c, const Config *cfg)
{
    if (!c)
        return false;
    if (strchr("#:|/-_.~;,+=", c))
        return true;
    return cfg && cfg->separator && cfg->separator[0] == c;
}

bool kf_is_prefix_sep_char(char c, const Config *cfg)
{
    if (!c)
        return false;
    if (c == '#' || c == ':' || c == '|')
        return true;
    return cfg && cfg->separator && cfg->separator[0] == c;
}

static char version_char(const Config *cfg)
{
    return cfg && cfg->version_separator ? cfg->version_separator[0] : '@';
}

bool kf_is_version_tail(const KfKey *k, size_t p, size_t off,
                        const Config *cfg)
{
    const KfPart *part = &k->parts[p];
    if (part->hole || off >= part->len)
        return false;
    const Seg *s = kf_text_seg_at(k, p, off, NULL);
    if (part->text[off] != version_char(cfg) &&
        !(s && (s->flags & SEGF_VERSION_SEP)))
        return false;
    const char *rest = part->text + off + 1;
    if (!*rest) /* separator ends the run: a single hole must end the key */
        return p + 2 == k->n && k->parts[p + 1].hole;
    if (p + 1 != k->n)
        return false;
    return part->len - off - 1 <= part->digits; /* digits to the end */
}

/* A date/time neighbour: a digit in text, or a date hole; after a `-`,
 * an ISO week or quarter (`2024-W05`, `${year}-Q${quarter}`) too. */
static bool date_side(Arena *a, const KfKey *k, size_t p, size_t off,
                      int dir)
{
    const KfPart *part = &k->parts[p];
    if (dir < 0 && off > 0)
        return isdigit((unsigned char)part->text[off - 1]) != 0;
    if (dir > 0 && part->text[off] == '-' && off + 1 < part->len &&
        (part->text[off + 1] == 'W' || part->text[off + 1] == 'Q'))
        return date_side(a, k, p, off + 1, +1);
    if (dir > 0 && off + 1 < part->len)
        return isdigit((unsigned char)part->text[off + 1]) != 0;
    if (dir < 0 && p == 0)
        return false;
    size_t q = dir < 0 ? p - 1 : p + 1;
    if (q >= k->n || !k->parts[q].hole)
        return false;
    return kf_hole_is_date(a, kf_part_seg(k, q));
}

/* Two elements of one array (`parts[0]`, `parts[1]`). */
static bool same_array(const Seg *x, const Seg *y)
{
    if (x->kind != SEG_REF || y->kind != SEG_REF || !x->text || !y->text)
        return false;
    const char *bx = strrchr(x->text, '['), *by = strrchr(y->text, '[');
    return bx && by && bx > x->text && bx - x->text == by - y->text &&
           !strncmp(x->text, y->text, (size_t)(bx - x->text)) && strcmp(x->text, y->text);
}

/* A parameter whose name says it holds one id (`serviceId`, `user_id`),
 * not a key or a key part (`pkId`, `sortKeyId`, `prefixId`). */
static bool id_param(const char *name)
{
    size_t l = name ? strlen(name) : 0;
    if (l < 3 || !(!strcmp(name + l - 2, "Id") || !strcmp(name + l - 2, "ID") ||
                   (l > 3 && !strcasecmp(name + l - 3, "_id"))))
        return false;
    static const char *const keyish[] = {"key", "partition", "sort", "gsi", "lsi", "prefix",
                                         NULL};
    for (const char *const *w = keyish; *w; w++)
        if (strcasestr(name, *w))
            return false;
    return strncasecmp(name, "pk", 2) && strncasecmp(name, "sk", 2);
}

/* Text part `p` lies inside one argument handed to a parameter that holds
 * an id (`updateHeartbeat(name, version, `${name}-${Date.now()}`)` with
 * `SK: `VERSION#${version}#${serviceId}``): the holes on both sides and
 * all its text came from that argument, so its characters are the id's
 * own, not separators of the key. */
static bool inside_id_argument(const KfKey *k, size_t p)
{
    if (p == 0 || p + 1 >= k->n || !k->parts[p - 1].hole || !k->parts[p + 1].hole)
        return false;
    const Seg *before = &k->segs->v[k->parts[p - 1].first];
    const Seg *after = &k->segs->v[k->parts[p + 1].first];
    if (!(before->flags & SEGF_ARG) || !(after->flags & SEGF_ARG) || !id_param(before->param) ||
        !after->param || strcmp(before->param, after->param))
        return false;
    for (size_t i = 0; i < k->parts[p].nsegs; i++) {
        const Seg *t = &k->segs->v[k->parts[p].first + i];
        if (!(t->flags & SEGF_ARG) || !t->param || strcmp(t->param, before->param))
            return false;
    }
    /* the key holds more than that argument: a key that is the argument
     * whole (`Key: { id: { S: itemId } }`) is judged as the key it is */
    for (size_t i = 0; i < k->segs->n; i++) {
        const Seg *t = &k->segs->v[i];
        if (!(t->flags & SEGF_ARG) || !t->param || strcmp(t->param, before->param))
            return true;
    }
    return false;
}

/* The text of run `part` up to `off` ends with a digest algorithm's name
 * (`sha256:${hex}`): the `:` of the digest's own notation. */
static bool digest_notation(const KfPart *part, size_t off)
{
    static const char *const algs[] = {"sha1", "sha224", "sha256", "sha384", "sha512",
                                       "md5", "blake2b", "blake3", NULL};
    for (const char *const *g = algs; *g; g++) {
        size_t l = strlen(*g);
        if (off >= l && !strncasecmp(part->text + off - l, *g, l) &&
            (off == l || !isalnum((unsigned char)part->text[off - l - 1])))
            return true;
    }
    return false;
}

/* `token#jwt_${userId}`: the character at `off` ends a short lower-case
 * word that follows another boundary character of the same run, so the
 * key's component starts after that one and `jwt_` is the value's own
 * type prefix (as `cus_`, `sk_live_` are of ids). */
static bool id_type_prefix(const KfPart *part, size_t off, const Config *cfg)
{
    size_t w = 0;
    while (w < off && w < 9 && islower((unsigned char)part->text[off - 1 - w]))
        w++;
    if (w < 2 || w > 8 || w == off)
        return false;
    char before = part->text[off - 1 - w];
    return before != part->text[off] && kf_is_boundary_char(before, cfg);
}

static void add_boundary(Arena *a, const KfKey *k, const Config *cfg,
                         size_t p, size_t off, KfBoundary *v, size_t *n)
{
    const KfPart *part = &k->parts[p];
    char c = part->text[off];
    /* Boundaries come in order of (part, offset): a text of one character
     * between two holes is met twice in a row, and a position refused
     * once is refused again. */
    if (*n && v[*n - 1].part == p && v[*n - 1].off == off)
        return;
    if (!kf_is_boundary_char(c, cfg))
        return;
    if (strchr("-:.TZ", c) && date_side(a, k, p, off, -1) &&
        date_side(a, k, p, off, +1))
        return;
    if (kf_is_version_tail(k, p, off, cfg))
        return;
    /* `${endDate}~` at the end of a key: the upper end of a range (`~`
     * sorts after the characters of ids), no separator */
    if (c == '~' && p + 1 == k->n && off + 1 == part->len)
        return;
    /* `${parts[0]}_${parts[1]}`: a value split on `_` put back together */
    if (part->len == 1 && p > 0 && p + 1 < k->n && k->parts[p - 1].hole &&
        k->parts[p + 1].hole &&
        same_array(kf_part_seg(k, p - 1), kf_part_seg(k, p + 1)))
        return;
    if (inside_id_argument(k, p))
        return;
    /* `EVENT#${EVENT_ID}` where `EVENT_ID = `LOADTEST_${RUN_ID}``: the
     * text of an id's constant, inlined where the key holds the id, is the
     * id's own, not a component of the key */
    const Seg *ts = kf_text_seg_at(k, p, off, NULL);
    if (ts && (ts->flags & SEGF_CONST_PART) && ts->name &&
        kf_name_ends_with_word(kf_last_component(a, ts->name), "id"))
        return;
    /* text before a value: its last characters name what the value is */
    if (off + 1 == part->len && p + 1 < k->n && k->parts[p + 1].hole &&
        ((c == ':' && digest_notation(part, off)) ||
         ((c == '_' || c == '-') && id_type_prefix(part, off, cfg))))
        return;
    v[(*n)++] = (KfBoundary){ .c = c, .part = p, .off = off, .seg = ts };
}

bool kf_is_phone(const KfKey *k)
{
    if (k->n < 2 || k->parts[0].hole || k->parts[0].len != 1 || k->parts[0].text[0] != '+')
        return false;
    for (size_t i = 1; i < k->n; i++)
        if (!k->parts[i].hole)
            return false;
    return true;
}

size_t kf_boundaries(Arena *a, const KfKey *k, const Config *cfg,
                     KfBoundary **out)
{
    KfBoundary *v = arena_alloc(a, (2 * k->n + 1) * sizeof *v);
    size_t n = 0;
    for (size_t i = 0; i < k->n && !kf_is_phone(k); i++) {
        if (!k->parts[i].hole)
            continue;
        if (i > 0 && !k->parts[i - 1].hole)
            add_boundary(a, k, cfg, i - 1, k->parts[i - 1].len - 1, v, &n);
        if (i + 1 < k->n && !k->parts[i + 1].hole)
            add_boundary(a, k, cfg, i + 1, 0, v, &n);
    }
    *out = v;
    return n;
}

const char *kf_boundary_chars(Arena *a, const KfBoundary *b, size_t n)
{
    char *s = arena_alloc(a, n + 1);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (!memchr(s, b[i].c, m))
            s[m++] = b[i].c;
    s[m] = '\0';
    return s;
}

bool kf_boundaries_all_helper(const KfBoundary *b, size_t n)
{
    if (!n)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!b[i].seg || !(b[i].seg->flags & SEGF_HELPER))
            return false;
    return true;
}

/* ---- Versions ------------------------------------------------------- */

/* A version separator inside text part `p` (kf_is_versioned): a
 * SEGF_VERSION_SEP segment followed by something, or a version tail. One
 * pass over the part's segments and their characters. */
static const Seg *versioned_text(const KfKey *k, size_t p, const Config *cfg)
{
    const KfPart *part = &k->parts[p];
    char vc = version_char(cfg);
    size_t off = 0;
    for (size_t m = part->first; m < part->first + part->nsegs; m++) {
        const Seg *s = &k->segs->v[m];
        size_t l = s->text ? strlen(s->text) : 0;
        bool sep = (s->flags & SEGF_VERSION_SEP) != 0;
        if (sep && l && (off + 1 < part->len || p + 1 < k->n))
            return s; /* so == 0 */
        for (size_t so = 0; so < l; so++, off++)
            if ((sep || part->text[off] == vc) && kf_is_version_tail(k, p, off, cfg))
                return s;
    }
    return NULL;
}

bool kf_is_versioned(const KfKey *k, const Config *cfg, const Seg **why)
{
    const Seg *w = NULL;
    for (size_t i = 0; i < k->segs->n && !w; i++) {
        const Seg *s = &k->segs->v[i];
        if ((s->flags & SEGF_VERSIONED) && !(s->flags & SEGF_UNVERSIONED))
            w = s;
    }
    for (size_t p = 0; p < k->n && !w; p++)
        if (!k->parts[p].hole)
            w = versioned_text(k, p, cfg);
    if (why)
        *why = w;
    return w != NULL;
}

/* ---- Prefixes and attributes ---------------------------------------- */

const char *kf_leading_prefix(Arena *a, const KfKey *k)
{
    if (!k->n || k->parts[0].hole)
        return NULL;
    const char *t = k->parts[0].text;
    if (!isalpha((unsigned char)t[0]))
        return NULL;
    size_t n = 1;
    while (isalnum((unsigned char)t[n]) || t[n] == '_')
        n++;
    return arena_strndup(a, t, n);
}

/* gsi1pk, GSI2SK, lsi1sk, gsi_1_pk ...: letters "gsi"/"lsi", digits or
 * underscores, then "pk"/"sk" (any case). */
static bool index_key_name(const char *n)
{
    if (strncasecmp(n, "gsi", 3) && strncasecmp(n, "lsi", 3))
        return false;
    n += 3;
    while (isdigit((unsigned char)*n) || *n == '_')
        n++;
    return !strcasecmp(n, "pk") || !strcasecmp(n, "sk");
}

bool kf_id_attribute(const KeyExpr *k, const Config *cfg)
{
    return (k->role == ROLE_INDEX_PK || k->role == ROLE_INDEX_SK) && k->attr &&
           k->site != SITE_HELPER && kf_name_ends_with_word(k->attr, "id") &&
           !strcasestr(k->attr, "key") && !kf_is_key_attr_name(k->attr, cfg);
}

/* `ticketId`, `sessionId`: a name for one entity's id, longer than `id`
 * itself, with no "key" in it and no key attribute's spelling. */
static bool entity_id_name(const char *n, const Config *cfg)
{
    return n && strlen(n) > 2 && kf_name_ends_with_word(n, "id") && !strcasestr(n, "key") &&
           !kf_is_key_attr_name(n, cfg);
}

/* `tkt-${uuid}`: one word, its separator, then one value; or a code
 * with a number written out, `PED-${year}-00001`: values and digits
 * joined by that one separator. (`create:${a}:${b}` is a key of parts.) */
static bool written_number(const KfKey *key);
static bool typed_id_text(const KfKey *key, const Config *cfg)
{
    if (key->n < 2 || key->parts[0].hole || key->parts[0].len < 2)
        return false;
    const KfPart *t = &key->parts[0];
    for (size_t i = 0; i + 1 < t->len; i++)
        if (kf_is_boundary_char(t->text[i], cfg))
            return false;
    if (key->n == 2)
        return key->parts[1].hole;
    char sep = t->text[t->len - 1];
    bool value = false;
    for (size_t p = 1; p < key->n; p++) {
        const KfPart *q = &key->parts[p];
        value |= q->hole;
        for (size_t i = 0; !q->hole && i < q->len; i++)
            if (q->text[i] != sep && !isdigit((unsigned char)q->text[i]))
                return false;
    }
    return value && written_number(key);
}

/* Whether a text part after the first has digits (`-00001`). */
static bool written_number(const KfKey *key)
{
    for (size_t p = 1; p < key->n; p++)
        for (size_t i = 0; !key->parts[p].hole && i < key->parts[p].len; i++)
            if (isdigit((unsigned char)key->parts[p].text[i]))
                return true;
    return false;
}

const char *kf_id_holder(const KeyExpr *k, const KfKey *key, const Config *cfg)
{
    if (k->site == SITE_HELPER)
        return NULL;
    const char *v = k->via ? strrchr(k->via, '.') : NULL;
    v = v ? v + 1 : k->via;
    if (entity_id_name(v, cfg))
        return v;
    /* a bare `id` holds the keys of a generic table too (`accounts/${i}`
     * beside `${account}-${region}`): only a number written out in it
     * (`PED-${year}-00001`) makes its value a code */
    bool bare = k->attr && !strcasecmp(k->attr, "id") && written_number(key);
    if (k->role != ROLE_INDEX_PK && k->role != ROLE_INDEX_SK &&
        (entity_id_name(k->attr, cfg) || bare) && typed_id_text(key, cfg))
        return k->attr;
    return NULL;
}

bool kf_same_value_earlier(const FileIR *f, size_t i)
{
    const KeyExpr *k = &f->keys.v[i];
    if (!k->via)
        return false;
    for (size_t j = 0; j < i; j++) {
        const KeyExpr *o = &f->keys.v[j];
        if (o->op == k->op && o->via && !strcmp(o->via, k->via) &&
            o->via_span.start_byte == k->via_span.start_byte)
            return true;
    }
    return false;
}

bool kf_is_tenant_record(Arena *a, const KfKey *k)
{
    const char *prefix = kf_leading_prefix(a, k);
    return prefix && strcasestr(prefix, "tenant");
}

bool kf_is_key_attr_name(const char *name, const Config *cfg)
{
    if (!name || !name[0])
        return false;
    if (!strcasecmp(name, "pk") || !strcasecmp(name, "sk") ||
        index_key_name(name))
        return true;
    return cfg && (strlist_has(&cfg->key_pk, name) ||
                   strlist_has(&cfg->key_sk, name) ||
                   strlist_has(&cfg->key_index_pk, name) ||
                   strlist_has(&cfg->key_index_sk, name));
}

bool kf_attr_is_sk(const char *attr, const Config *cfg)
{
    if (!attr)
        return false;
    if (!strcasecmp(attr, "sk") || !strcasecmp(attr, "sortKey") ||
        !strcasecmp(attr, "rangeKey"))
        return true;
    return cfg && strlist_has(&cfg->key_sk, attr);
}

const char *kf_role_noun(KeyRole r)
{
    switch (r) {
    case ROLE_PK:
        return "partition key";
    case ROLE_SK:
        return "sort key";
    case ROLE_INDEX_PK:
        return "index partition key";
    case ROLE_INDEX_SK:
        return "index sort key";
    case ROLE_KEY:
    case KEY_ROLE_COUNT:
        break;
    }
    return "key";
}

void kf_op_keys(Arena *a, const FileIR *file, KfOpKeys *out)
{
    size_t nops = file->ops.n, nkeys = file->keys.n;
    out->first = arena_alloc(a, (nops + 1) * sizeof *out->first);
    out->next = arena_alloc(a, (nkeys + 1) * sizeof *out->next);
    size_t *last = arena_alloc(a, (nops + 1) * sizeof *last);
    for (size_t o = 0; o < nops; o++)
        out->first[o] = last[o] = KF_NO_KEY;
    for (size_t i = 0; i < nkeys; i++) {
        out->next[i] = KF_NO_KEY;
        int op = file->keys.v[i].op;
        if (op < 0 || (size_t)op >= nops)
            continue;
        if (last[op] == KF_NO_KEY)
            out->first[op] = i;
        else
            out->next[last[op]] = i;
        last[op] = i;
    }
}

/* The first key of role `role` of each data operation of `file` (NULL for
 * an operation without one): an array of file->ops.n entries in `a`. */
static const KeyExpr **op_first_keys(Arena *a, const FileIR *file, KeyRole role)
{
    size_t n = file ? file->ops.n : 0;
    const KeyExpr **first = arena_alloc(a, (n ? n : 1) * sizeof *first);
    for (size_t i = 0; i < (file ? file->keys.n : 0); i++) {
        const KeyExpr *k = &file->keys.v[i];
        if (k->op >= 0 && (size_t)k->op < n && k->role == role && !first[k->op])
            first[k->op] = k;
    }
    return first;
}

const char **kf_op_entities(Arena *a, const FileIR *file)
{
    size_t n = file ? file->ops.n : 0;
    const char **e = arena_alloc(a, (n ? n : 1) * sizeof *e);
    const KeyExpr **pks = op_first_keys(a, file, ROLE_PK);
    for (size_t o = 0; o < n; o++) {
        if (!pks[o])
            continue;
        KfKey key;
        kf_flatten(a, &pks[o]->segs, &key);
        e[o] = kf_leading_prefix(a, &key);
    }
    return e;
}

const char *kf_key_entity(Arena *a, const FileIR *file, const KeyExpr *k,
                          const char *const *op_entities)
{
    if (k->op >= 0 && (size_t)k->op < file->ops.n && op_entities[k->op])
        return op_entities[k->op];
    if (k->role != ROLE_PK)
        return NULL;
    KfKey key;
    kf_flatten(a, &k->segs, &key);
    return kf_leading_prefix(a, &key);
}

const char **kf_op_sk_entities(Arena *a, const FileIR *file, bool with_id)
{
    size_t n = file ? file->ops.n : 0;
    const char **e = arena_alloc(a, (n ? n : 1) * sizeof *e);
    const KeyExpr **sks = op_first_keys(a, file, ROLE_SK);
    for (size_t o = 0; o < n; o++) {
        if (!sks[o])
            continue;
        KfKey key;
        kf_flatten(a, &sks[o]->segs, &key);
        if (!with_id || kf_hole_count(&key) > 0)
            e[o] = kf_leading_prefix(a, &key);
    }
    return e;
}

/* The value right after a key's leading entity prefix (`LISTING#${id}`:
 * the text is the prefix and separators only), NULL if none. */
static const char *id_after_prefix(Arena *a, const KfKey *key)
{
    const char *prefix = kf_leading_prefix(a, key);
    if (!prefix || key->n < 2 || !key->parts[1].hole)
        return NULL;
    const char *t = key->parts[0].text;
    for (size_t i = strlen(prefix); i < key->parts[0].len; i++)
        if (isalnum((unsigned char)t[i]))
            return NULL;
    const Seg *s = kf_part_seg(key, 1);
    if (!s || s->kind != SEG_REF || !s->text)
        return NULL;
    return kf_last_component(a, s->text);
}

const char **kf_op_id_names(Arena *a, const FileIR *file, const char *const *op_sk_entities)
{
    size_t n = file ? file->ops.n : 0;
    const char **e = arena_alloc(a, (n ? n : 1) * sizeof *e);
    const KeyExpr **pks = op_first_keys(a, file, ROLE_PK);
    const KeyExpr **sks = op_first_keys(a, file, ROLE_SK);
    for (size_t o = 0; o < n; o++) {
        const KeyExpr *k = op_sk_entities[o] ? sks[o] : pks[o];
        if (!k)
            continue;
        KfKey key;
        kf_flatten(a, &k->segs, &key);
        e[o] = id_after_prefix(a, &key);
    }
    return e;
}

/* Glob matching for `.keylint.yml`'s path lists (`ignore`, rule scopes)
 * and declared wrappers' call patterns: config.h's glob_match. */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Glob matching                                                            */

/* Decode one UTF-8 code point of [s, end); invalid input counts as one
 * byte. Returns its length in bytes (>= 1). */
static size_t utf8_decode(const char *s, const char *end, uint32_t *cp)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t avail = (size_t)(end - s);
    unsigned char b = u[0];
    size_t len;
    uint32_t v;
    if (b < 0x80) {
        *cp = b;
        return 1;
    } else if ((b & 0xE0) == 0xC0) {
        len = 2;
        v = b & 0x1F;
    } else if ((b & 0xF0) == 0xE0) {
        len = 3;
        v = b & 0x0F;
    } else if ((b & 0xF8) == 0xF0) {
        len = 4;
        v = b & 0x07;
    } else {
        *cp = b;
        return 1;
    }
    if (len > avail) {
        *cp = b;
        return 1;
    }
    for (size_t i = 1; i < len; i++) {
        if ((u[i] & 0xC0) != 0x80) {
            *cp = b;
            return 1;
        }
        v = (v << 6) | (u[i] & 0x3F);
    }
    *cp = v;
    return len;
}

/* One pattern character at *pp (< pe), honouring a backslash escape. */
static uint32_t class_char(const char **pp, const char *pe)
{
    uint32_t c;
    if (**pp == '\\' && *pp + 1 < pe)
        (*pp)++;
    *pp += utf8_decode(*pp, pe, &c);
    return c;
}

/* A bracket expression starting at p ('[') within [p, pe). Returns false
 * when it is not terminated (then '[' is an ordinary character); otherwise
 * sets *matched for code point `c` and *next past the ']'. */
static bool match_class(const char *p, const char *pe, uint32_t c,
                        bool *matched, const char **next)
{
    const char *q = p + 1;
    bool negate = false;
    if (q < pe && (*q == '!' || *q == '^')) {
        negate = true;
        q++;
    }
    bool hit = false, first = true;
    while (q < pe && (*q != ']' || first)) {
        first = false;
        uint32_t lo = class_char(&q, pe), hi = lo;
        if (q + 1 < pe && *q == '-' && q[1] != ']') {
            q++;
            hi = class_char(&q, pe);
        }
        if (lo <= c && c <= hi)
            hit = true;
    }
    if (q >= pe)
        return false;
    *matched = hit != negate;
    *next = q + 1;
    return true;
}

/* Match one non-star token of the pattern at p against the path at s.
 * On success sets *np past the token and *slen to the bytes consumed. */
static bool match_token(const char *p, const char *pe, const char *s,
                        const char *se, const char **np, size_t *slen)
{
    uint32_t c;
    switch (*p) {
    case '?':
        *slen = utf8_decode(s, se, &c);
        *np = p + 1;
        return true;
    case '[': {
        bool matched;
        const char *next;
        size_t n = utf8_decode(s, se, &c);
        if (match_class(p, pe, c, &matched, &next)) {
            *slen = n;
            *np = next;
            return matched;
        }
        break; /* unterminated: a literal '[' */
    }
    case '\\':
        if (p + 1 < pe)
            p++;
        break;
    default:
        break;
    }
    if (*p != *s)
        return false;
    *np = p + 1;
    *slen = 1;
    return true;
}

/* Match one path component [s, se) against one pattern component [p, pe)
 * (neither contains '/'). Iterative, with backtracking only to the most
 * recent '*': O(|p| * |s|) at worst. */
static bool segment_match(const char *p, const char *pe, const char *s,
                          const char *se)
{
    const char *star_p = NULL, *star_s = NULL;
    while (s < se) {
        if (p < pe && *p == '*') {
            while (p < pe && *p == '*')
                p++;
            star_p = p;
            star_s = s;
            continue;
        }
        const char *np;
        size_t n;
        if (p < pe && match_token(p, pe, s, se, &np, &n)) {
            p = np;
            s += n;
            continue;
        }
        if (star_p) {
            uint32_t c;
            star_s += utf8_decode(star_s, se, &c);
            s = star_s;
            p = star_p;
            continue;
        }
        return false;
    }
    while (p < pe && *p == '*')
        p++;
    return p == pe;
}

/* Skip separators and "." components. */
static const char *skip_sep(const char *s)
{
    for (;;) {
        while (*s == '/')
            s++;
        if (s[0] == '.' && (s[1] == '/' || s[1] == '\0'))
            s++;
        else
            return s;
    }
}

static const char *component_end(const char *s)
{
    while (*s && *s != '/')
        s++;
    return s;
}

bool glob_match(const char *pattern, const char *path)
{
    if (!pattern || !path)
        return false;

    if (!strchr(pattern, '/')) {
        /* Like .gitignore: match the last component. */
        const char *end = path + strlen(path);
        while (end > path && end[-1] == '/')
            end--;
        const char *base = end;
        while (base > path && base[-1] != '/')
            base--;
        return segment_match(pattern, pattern + strlen(pattern), base, end);
    }

    /* Component-wise, with the same two-pointer scheme as segment_match:
     * `**` is to components what `*` is to characters. A trailing '/'
     * behaves like a trailing "/" followed by `**`. */
    size_t plen = strlen(pattern);
    bool trailing_slash = pattern[plen - 1] == '/';
    const char *p = skip_sep(pattern), *s = skip_sep(path);
    const char *star_p = NULL, *star_s = NULL;
    for (;;) {
        if (!*p) {
            if (!*s || trailing_slash)
                return true;
        } else {
            const char *pe = component_end(p);
            if (pe - p == 2 && p[0] == '*' && p[1] == '*') {
                p = skip_sep(pe);
                star_p = p;
                star_s = s;
                continue;
            }
            if (*s) {
                const char *se = component_end(s);
                if (segment_match(p, pe, s, se)) {
                    p = skip_sep(pe);
                    s = skip_sep(se);
                    continue;
                }
            }
        }
        if (star_p && *star_s) {
            star_s = skip_sep(component_end(star_s));
            s = star_s;
            p = star_p;
            continue;
        }
        return false;
    }
}

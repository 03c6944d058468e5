/* The text pre-check: can extraction find anything in a file, judged from
 * its text alone, before it is parsed?
 *
 * Most files of an application never touch DynamoDB (UI components,
 * infrastructure, tests of other things). A file is parsed and extracted
 * when its text holds one of the words every key, data operation, key
 * helper and table in code is written with (extract_may_find); the others
 * are read, kept aside unparsed, and extracted later only when the project
 * needs what they define (defer.h: an import names them, or they may hold
 * the text of a constant some key writes inline).
 *
 * The words are a superset: a file that passes may still hold nothing. The
 * test that keeps them honest extracts every file of the fixtures and the
 * example and checks that each file the pre-check would skip has no key,
 * data operation, helper or table (tests/test_extract.c). */
#ifndef KEYLINT_PRECHECK_H
#define KEYLINT_PRECHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "config.h"

/* May extraction find a key, a data operation, a key helper or a table in
 * `text`, under `cfg` (its separator, key attribute names and wrappers)?
 * False only when it certainly finds none of them. */
bool extract_may_find(const char *text, size_t len, const Config *cfg);

/* The identifiers of a text, for the pre-check and the notes of deferred
 * files (defer.c): runs of ASCII letters, digits, '_' and '$'. */
static inline bool text_ident_char(char c)
{
    unsigned char u = (unsigned char)c;
    return (unsigned char)((u | 0x20) - 'a') < 26 || (unsigned char)(u - '0') < 10 || u == '_' ||
           u == '$';
}

/* The next identifier of t[*i, len): sets *start to its first byte and *i
 * past its end. False when there is none left. */
bool text_next_ident(const char *t, size_t len, size_t *i, size_t *start);

#endif

/* YAML and JSON text to the document trees the schema readers take
 * (DocNode, schema.h), with libyaml. */
#ifndef KEYLINT_YAML_DOC_H
#define KEYLINT_YAML_DOC_H

#include "schema.h"

/* The document in buf[0..len) (the text of `path`, shown as `display`;
 * JSON when `path` ends in .json or the text starts with `{`): its root
 * (DOC_NULL for an empty document), every node in `a`. A syntax error
 * adds a problem with line and column and returns NULL. `buf` may be
 * changed in place (JSON surrogate escapes, which libyaml rejects, become
 * U+FFFD; positions do not move). */
DocNode *yaml_doc_parse(Arena *a, const char *path, const char *display, char *buf,
                        size_t len, Problems *problems);

#endif

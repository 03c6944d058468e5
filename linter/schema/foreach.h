/* Fn::ForEach of the AWS::LanguageExtensions transform, in a template's
 * Resources: the resources a loop over a literal collection makes. */
#ifndef KEYLINT_FOREACH_H
#define KEYLINT_FOREACH_H

#include "schema.h"

/* A resource of a Fn::ForEach keylint could not expand: its collection is
 * not a literal list (a parameter, !Split, ...), the loops nest too deep,
 * or the expansion outgrew its budget. */
typedef struct ForEachUnread {
    const char *loop;     /* "Fn::ForEach::Tables" */
    const DocNode *key;   /* the output key as written ("Table${Name}") */
    const DocNode *value; /* the resource as written */
    const char *why;
} ForEachUnread;

typedef VEC(ForEachUnread) ForEachUnreads;

/* `resources` (a Resources mapping) with each Fn::ForEach entry replaced
 * by the resources it makes: `${Id}` and `&{Id}` in output keys and
 * strings, and `!Ref Id`, become each value of the collection in turn
 * (loops inside loops too, up to five deep). The result shares the
 * entries that are not loops; the copies are in `a`. The resources of a
 * loop that cannot be expanded go to `unread` (in `a`) and are left out.
 * Returns `resources` itself when it holds no Fn::ForEach. */
const DocNode *foreach_expand(Arena *a, const DocNode *resources, ForEachUnreads *unread);

#endif

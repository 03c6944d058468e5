/* Indexes added to a table outside its definition (index_calls.c): CDK
 * add*SecondaryIndex calls on a table another file defines, and the
 * indexes UpdateTable scripts create. Part of access_model (access.h). */
#ifndef KEYLINT_INDEX_CALLS_H
#define KEYLINT_INDEX_CALLS_H

#include "access.h"

/* The last dotted component of a name: "props.table" -> "table". */
const char *name_tail(const char *s);

/* Join the index calls of the files of `cfg` to the tables of `m`:
 * tables from `code_from` on are those defined in code. An index joins a
 * copy of its table's index list (the file's own table stays as the file
 * saw it); where the table cannot be told, the candidates' indexes are
 * marked open (a query on an index not listed is then not judged). */
void index_calls_attach(Arena *a, TableModel *m, size_t code_from, FileIR *const *files,
                        const Config *const *cfgs, size_t n, const Config *cfg);

#endif

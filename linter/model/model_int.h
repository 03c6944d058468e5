/* What the model's writers share (model_write.c, model_workbench.c,
 * model_html.c, model_diff.c). Not used outside linter/model/. */
#ifndef KEYLINT_MODEL_INT_H
#define KEYLINT_MODEL_INT_H

#include "model.h"

/* A table as access patterns name it: its physical name when known, else
 * its label. */
const char *model_table_short(const MTable *t);
/* "=", "begins_with", "between", "<", ... */
const char *model_cond_op(CondOp op);
/* "example-data/GSI1": where a query runs. */
const char *model_query_target(Arena *a, const DesignModel *m, const MQuery *q);
/* "pk = ORDER#{tenantCode}, sk begins_with ORDER_ITEM#{orderId}", "scan". */
const char *model_query_condition(Arena *a, const MQuery *q);
/* "ORDER, ORDER_ITEM" or "(no entity)". */
const char *model_query_entities(Arena *a, const MQuery *q);
/* The shapes an entity's cell for `attr` shows (at most `max`): the
 * written ones and those only read that have text (a value passed in,
 * "{sk}", only when there is nothing else), written ones first; not the
 * literal ids of another shape (MShape.example). */
size_t model_cell_shapes(const MEntity *e, const char *attr, const MShape **out, size_t max);
/* Whether display path `path` is a test's file (a folder of its path is
 * test, tests, __tests__, mocks or __mocks__): its mocks and fixtures are
 * not the design, the model draws neither its keys nor its queries. */
bool model_test_file(const char *path);
/* "src/a.ts:3, src/b.ts:9 and 2 more". */
const char *model_sites(Arena *a, const MSites *v, size_t max);
bool model_entity_written(const MEntity *e);
/* How many entities table `t` has. */
size_t model_table_entities(const DesignModel *m, size_t t);
/* Whether the entity writes the key that puts it in index `ix`. */
bool model_entity_in_index(const MEntity *e, const MIndex *ix);
/* `text` without the separators around it (`#SYSTEM#SETTING#` ->
 * `SYSTEM#SETTING`): where that starts, and its length in *n. */
const char *model_trim_separators(const char *text, size_t *n);
/* How a shape's condition reads (MShape.when): the last name of a path
 * (`dto.parentAlbumId` -> parentAlbumId), else the condition as written,
 * up to 40 bytes; NULL for NULL. In `a`. */
const char *model_when_text(Arena *a, const char *when);
/* Whether literal shape `lit` is an id that shape `w` (with values) holds:
 * it matches w, and has a lower case letter or a digit (an enumerated
 * value, `ORG_STATUS#APPROVED`, stays a shape of its own). */
bool model_literal_of(const char *lit, const char *w);
/* Whether a key of shape `q` (a query's value) names items of shape `w`
 * (written): structurally, not only on the literal start and end as
 * unmatched-query compares them. A literal q must match w with values for
 * its holes; a q with values must have w's literal runs, run by run (with
 * begins_with, up to its last, a start of w's); a literal w that starts
 * as q does must match q with values for q's holes (with begins_with, a
 * start of w must). */
bool model_shape_matches(const char *q, const char *w, bool prefix);
/* The entity a hierarchical sort key names when its partition holds a
 * shape it extends: for `canon` ROLE#{}#SLOT#{} (its first word `tok`,
 * ROLE) with ROLE#{} beside it (`beside(ctx, "ROLE#{}")` true), SLOT, the
 * last word after that shape, when it is not `tok`; else NULL. In `a`. */
const char *model_child_word(Arena *a, const char *canon, const char *tok,
                             bool (*beside)(void *ctx, const char *sibling), void *ctx);
/* A literal id no shape of its own entity holds that is an id of one
 * written shape with values of its table (seed data's GSI2PK
 * `ORG#org-demo-1` where ORG items are `ORG#{orgId}`): drawn as that
 * shape, one with it when the entity has it too. */
void model_fold_literals(DesignModel *m);
/* Markdown: `s` as inline code in a table cell; `s` as plain text. */
void model_md_code(FILE *out, const char *s);
void model_md_text(FILE *out, const char *s);

#endif

#include "dumpir.h"

#include <string.h>

static void flags(FILE *out, uint32_t f)
{
    static const struct { uint32_t bit; const char *name; } names[] = {
        {SEGF_CONST, "const"},         {SEGF_SEPARATOR, "separator"},
        {SEGF_VERSION_SEP, "version-separator"}, {SEGF_VERSIONED, "versioned"},
        {SEGF_UNVERSIONED, "unversioned"}, {SEGF_TENANT, "tenant"},
        {SEGF_COMMON_TENANT, "common-tenant"}, {SEGF_FRAMEWORK, "framework"},
        {SEGF_HELPER, "helper"},       {SEGF_PARAM, "param"},
        {SEGF_IMPORTED, "imported"},   {SEGF_DATE, "date"},
        {SEGF_ARRAY_JOIN, "join"},     {SEGF_CONST_PART, "const-part"},
        {SEGF_ARG, "arg"},
    };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (f & names[i].bit)
            fprintf(out, " %s", names[i].name);
}

static void quoted(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20)
            fprintf(out, "\\x%02x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

static void segs(FILE *out, const SegList *l, int indent, int depth)
{
    static const char *const kinds[] = {"text", "ref", "call", "unknown"};
    for (size_t i = 0; i < l->n; i++) {
        const Seg *s = &l->v[i];
        fprintf(out, "%*s%-7s ", indent, "", kinds[s->kind]);
        if (s->kind == SEG_TEXT || s->kind == SEG_UNKNOWN)
            quoted(out, s->text);
        else
            fputs(s->text, out);
        fprintf(out, "  @%u:%u", s->span.start_row + 1, s->span.start_col + 1);
        if (s->name)
            fprintf(out, " name=%s", s->name);
        flags(out, s->flags);
        fputc('\n', out);
        if (depth < 6)
            for (size_t a = 0; a < s->nargs; a++) {
                fprintf(out, "%*sarg %zu:\n", indent + 2, "", a);
                segs(out, &s->args[a], indent + 4, depth + 1);
            }
    }
}

void dump_ir(FILE *out, const FileIR *ir)
{
    Arena *a = arena_new();
    fprintf(out, "file %s\n", ir->path);
    if (ir->parse_failed) {
        fputs("  (not parsed: syntax error)\n", out);
        arena_free(a);
        return;
    }
    for (size_t i = 0; i < ir->imports.n; i++)
        fprintf(out, "import %s = %s from \"%s\"\n", ir->imports.v[i].local,
                ir->imports.v[i].imported, ir->imports.v[i].source);
    for (size_t i = 0; i < ir->reexports.n; i++)
        fprintf(out, "export %s = %s from \"%s\"\n", ir->reexports.v[i].local,
                ir->reexports.v[i].imported, ir->reexports.v[i].source);
    for (size_t i = 0; i < ir->consts.n; i++) {
        const ConstDef *c = &ir->consts.v[i];
        fprintf(out, "const %s%s%s = ", c->name, c->exported ? " (exported)" : "",
                c->fixed ? "" : " (may change)");
        quoted(out, seglist_render(a, &c->value));
        fputc('\n', out);
    }
    if (ir->mutated.n) {
        fputs("assigns", out);
        for (size_t i = 0; i < ir->mutated.n; i++)
            fprintf(out, " %s", ir->mutated.v[i]);
        fputc('\n', out);
    }
    for (size_t i = 0; i < ir->item_calls.n; i++)
        fprintf(out, "hands argument %u to %s\n", ir->item_calls.v[i].arg,
                ir->item_calls.v[i].callee);
    for (size_t i = 0; i < ir->helpers.n; i++) {
        const HelperDef *h = &ir->helpers.v[i];
        fprintf(out, "helper %s(", h->name);
        for (size_t j = 0; j < h->nparams; j++)
            fprintf(out, "%s%s", j ? ", " : "", h->params[j]);
        fprintf(out, ")%s", h->exported ? " (exported)" : "");
        if (h->returns.n) {
            fputs(" -> ", out);
            quoted(out, seglist_render(a, &h->returns));
        }
        for (size_t j = 0; j < h->fields.n; j++) {
            fprintf(out, "%s%s=", j ? ", " : " -> { ", h->fields.v[j].attr);
            quoted(out, seglist_render(a, &h->fields.v[j].value));
        }
        if (h->fields.n)
            fputs(" }", out);
        for (size_t j = 0; j < h->sinks.n; j++) {
            fprintf(out, "%s%s=", j ? ", " : " builds keys from parameters: ",
                    h->sinks.v[j].attr ? h->sinks.v[j].attr : "?");
            quoted(out, seglist_render(a, &h->sinks.v[j].segs));
        }
        for (size_t j = 0; j < h->param_uses.n; j++) {
            const ParamUse *u = &h->param_uses.v[j];
            const char *p = u->param < h->nparams ? h->params[u->param] : "?";
            fputs(j ? ", " : " passes on: ", out);
            if (u->callee)
                fprintf(out, "%s to %s#%u", p, u->callee, u->arg);
            else
                fprintf(out, "%s as %s", p, u->site == SITE_WRITE ? "Item" : "Key");
        }
        fputc('\n', out);
    }
    for (size_t i = 0; i < ir->ops.n; i++) {
        const DataOp *o = &ir->ops.v[i];
        fprintf(out, "op %zu %u:%u %s %s %s table=%s (%s)", i, o->span.start_row + 1,
                o->span.start_col + 1, op_kind_name(o->kind), op_api_name(o->api), o->callee,
                o->table ? o->table : "?", table_kind_name(o->table_kind));
        if (o->index)
            fprintf(out, " index=%s", o->index);
        if (o->key_condition) {
            fputs(" condition=", out);
            quoted(out, o->key_condition);
        }
        const StrList *sets = fileir_op_sets(ir, i);
        if (sets->n) {
            fputs(" sets=", out);
            for (size_t j = 0; j < sets->n; j++)
                fprintf(out, "%s%s", j ? "," : "", sets->v[j]);
        }
        fputc('\n', out);
    }
    for (size_t i = 0; i < ir->keys.n; i++) {
        const KeyExpr *k = &ir->keys.v[i];
        fprintf(out, "key %u:%u %s %s %s attr=%s", k->span.start_row + 1,
                k->span.start_col + 1, key_role_name(k->role), key_site_name(k->site),
                key_build_name(k->build), k->attr ? k->attr : "?");
        if (k->cond != COND_NONE)
            fprintf(out, " cond=%s", cond_op_name(k->cond));
        if (k->op >= 0)
            fprintf(out, " op=%d", k->op);
        if (k->via)
            fprintf(out, " via=%s@%u:%u", k->via, k->via_span.start_row + 1,
                    k->via_span.start_col + 1);
        if (k->named_by != NAMED_SPELLING)
            fputs(k->named_by == NAMED_KEY_MAP ? " named-by=key-map" : " named-by=table", out);
        if (k->when)
            fprintf(out, " when=%s", k->when);
        fputs(" = ", out);
        quoted(out, seglist_render(a, &k->segs));
        fputc('\n', out);
        segs(out, &k->segs, 2, 0);
    }
    arena_free(a);
}

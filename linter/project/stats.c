#include "stats.h"

#include <sys/stat.h>

#include "tables.h"
#include "walk.h"

static void count(StatsCount *c, uint64_t bytes)
{
    c->files++;
    c->bytes += bytes;
}

/* Extraction found nothing in the file: no key, data operation, constant,
 * helper, choice of constants or table in code (what the pre-check is
 * there to tell from the text alone). */
static bool nothing_found(const FileIR *ir)
{
    const FileTables *ft = ir->tables;
    return !ir->extracted.n && !ir->ops.n && !ir->consts.n && !ir->helpers.n &&
           !ir->choices.n &&
           (!ft || (!ft->set.tables.n && !ft->consts.n && !ft->entities.n && !ft->index_calls.n));
}

void stats_add_project(RunStats *s, const Project *p)
{
    for (size_t i = 0; i < p->files.n; i++) {
        const SourceFile *f = &p->files.v[i];
        if (f->removed)
            continue;
        s->read_ns += f->read_ns;
        s->extract_ns += f->extract_ns;
        if (f->ir) {
            s->parse_ns += f->ir->parse_ns;
            count(&s->parsed, f->len);
            if (f->parsed_late)
                count(&s->later, f->len);
            s->syntax_errors += f->ir->parse_failed;
            if (!f->ir->parse_failed && nothing_found(f->ir))
                count(&s->empty, f->len);
            count(&s->found, f->len);
        } else if (f->deferred) {
            count(&s->read_only, f->len);
            count(&s->found, f->len);
        } else {
            /* not read: its size on disk, when it has one */
            struct stat st;
            uint64_t size = stat(f->abspath, &st) == 0 && S_ISREG(st.st_mode)
                                ? (uint64_t)st.st_size
                                : 0;
            count(&s->found, size);
            if (f->from_cache)
                continue; /* the cache kept the run's findings: nothing read */
            count(&s->skipped, size);
            switch (f->skip) {
            case SKIP_TOO_LARGE:
                s->why.too_large++;
                break;
            case SKIP_BINARY:
                s->why.binary++;
                break;
            case SKIP_NOT_UTF8:
                s->why.not_utf8++;
                break;
            default:
                s->why.unreadable++;
                break;
            }
        }
    }
    s->walk_ns += p->walk_ns;
    s->extract_wall_ns += p->extract_wall_ns;
    s->analyze_ns += p->analyze_ns;
    if (p->threads_used > s->threads)
        s->threads = p->threads_used;
}

/* The data operations of `ir` as the calls that make them: the branches
 * of one call's parameters (ex_branch_combos: one DataOp each, with the
 * call's span) are one operation. */
static size_t calls_of(const FileIR *ir)
{
    size_t n = 0;
    for (size_t i = 0; i < ir->ops.n; i++) {
        const Span *sp = &ir->ops.v[i].span;
        bool again = false;
        for (size_t j = 0; j < i && !again; j++)
            again = ir->ops.v[j].span.start_byte == sp->start_byte &&
                    ir->ops.v[j].span.end_byte == sp->end_byte;
        n += !again;
    }
    return n;
}

static void seen_file(SeenCounts *s, const SourceFile *f)
{
    if (!f || f->removed || !f->ir || f->ir->parse_failed)
        return;
    s->keys += f->ir->keys.n;
    s->ops += calls_of(f->ir);
}

void stats_seen(SeenCounts *s, const Project *p, const char *const *only, size_t nonly)
{
    if (nonly)
        for (size_t i = 0; i < nonly; i++)
            seen_file(s, project_file(p, only[i]));
    else
        for (size_t i = 0; i < p->files.n; i++)
            seen_file(s, &p->files.v[i]);
    /* a table several configurations see is one table */
    Arena *scratch = arena_new();
    StrList defs = {0};
    NameMap seen = {0};
    for (size_t m = 0; m < p->models.n; m++) {
        const TableSet *set = &p->models.v[m].model->set;
        for (size_t t = 0; t < set->tables.n; t++) {
            const TableDef *d = &set->tables.v[t];
            strlist_push_once(scratch, &defs, &seen,
                              arena_printf(scratch, "%s\x1f%s\x1f%s", d->path ? d->path : "",
                                           d->id ? d->id : "", d->name ? d->name : ""));
        }
    }
    s->tables += defs.n;
    arena_free(scratch);
}

void stats_times(RunStats *s, uint64_t report_start, uint64_t run_start)
{
    uint64_t now = clock_ns();
    s->report_ns = now - report_start;
    s->total_ns = now - run_start;
}

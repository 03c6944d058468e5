/* The pipeline, from paths to sorted diagnostics:
 *   walk -> read + parse + extract (in parallel) -> resolve -> facts -> rules.
 * A Project owns everything it creates: configurations, file texts, IRs,
 * problems and diagnostics. The CLI lints once; the language server keeps a
 * Project and replaces files in it. */
#ifndef KEYLINT_PROJECT_H
#define KEYLINT_PROJECT_H

#include "config.h"
#include "diag.h"
#include "ir.h"
#include "rule.h"

typedef struct SourceFile {
    const char *path;    /* display path */
    const char *abspath; /* canonical absolute path (module resolution) */
    char *text;          /* malloc'd; NULL when it could not be read, or
                          * after extraction when the project drops texts */
    size_t len;
    const Config *config;
    FileIR *ir;          /* NULL until extracted */
    Problems problems;   /* reading and parsing this file */
    bool removed;        /* dropped by project_remove (slot kept) */
    /* Read but not parsed: the pre-check (precheck.h) found nothing
     * extraction could read in it; `ir` stays NULL until the project needs
     * what it defines (project_analyze extracts it then). */
    bool deferred;
    struct DeferNote *note; /* while deferred: what defer.c reads of its text */
    bool buffer;         /* text set by project_set_text: never dropped */
    /* The last analysis read `ir` (project-wide facts point into it). */
    bool ir_analysed;
    /* The text was replaced (project_set_text) by one that differs only
     * inside comments from the text the last analysis read: `analysed` is
     * the IR that analysis read, kept alive because its facts and other
     * files' resolution point into it; `ir` is the new one. The next
     * analysis needs to resolve and check only this file, with the same
     * facts (project_analyze_some). Freed by the next analysis that
     * recomputes the facts. */
    FileIR *analysed;
    bool same_code;
    /* A buffer's last syntax tree, for an incremental parse after edits
     * (project_edit_text); NULL for files read from disk. Owned. */
    struct SynReuse *reuse;
    /* For --stats (stats.h): why the text could not be read, whether the
     * file was parsed only because a parsed file needed what it defines
     * (defer.h), and the time its read and its extraction took (`ir`
     * holds the parse's). */
    int skip;            /* SourceSkip (walk.h) */
    bool parsed_late;
    uint64_t read_ns, extract_ns;
    /* `ir` (or, set aside, `note`) came from the cache between runs
     * (cache.h), not from a parse. */
    bool from_cache;
    /* With the cache: the hash of the text extraction read (CacheKey's
     * `content`), "" when it read none (cache_findings.h keys on it). */
    char content[33];
} SourceFile;

typedef struct ConfigEntry {
    const char *path; /* the config file, or "" for built-in defaults */
    Config *config;   /* owned */
} ConfigEntry;

/* The table model of one configuration (access.h), per analysis. */
typedef struct ModelEntry {
    const Config *config;
    struct TableModel *model;
} ModelEntry;

typedef struct Project {
    Arena *arena;        /* lives as long as the project */
    Arena *analysis;     /* facts of the last analysis; replaced by the next */
    Problems problems;   /* project-level: paths, configuration */
    Config *forced;      /* --config FILE, owned; NULL if none */
    Config *defaults;    /* built-in defaults, owned */
    VEC(ConfigEntry) configs;
    VEC(SourceFile) files;
    /* files by display and absolute path: the first slot of each (in
     * `arena`); a removed slot falls back to a scan (find_file) */
    NameMap file_slots;
    ProjectFacts facts;
    DiagList diags;
    unsigned threads;    /* extraction threads; 0 = one per core */
    /* Free each file's text once it is extracted (the command line: the
     * report re-reads the few files that have findings; the language
     * server, which reads a related place's file again). Buffers
     * (project_set_text) are always kept. */
    bool drop_texts;
    /* Set aside the files the text pre-check clears (precheck.h) and
     * extract them only when an extracted file imports them or may use
     * the texts of their constants: the command line's full runs. The
     * language server extracts every file. */
    bool precheck;
    /* Prove every fix an analysis finds (fixproof.h): the command line,
     * whose reports carry them. The language server proves a document's
     * fixes when it is asked for its code actions. */
    bool prove_fixes;
    /* The cache between runs (cache.h): extraction reads each file's
     * entry before parsing it and writes it after. The caller's (it
     * outlives the project: a run may use several); NULL: none (the
     * language server). */
    struct Cache *cache;
    /* Tables (access-pattern rules), rebuilt by each analysis in
     * `analysis`: the table model of each configuration in use (schema
     * files plus tables in code), the project-wide access facts, and the
     * problems reading schema files (input problems, exit 2). */
    VEC(ModelEntry) models;
    struct TemplateCache *templates; /* found once per configuration (access.h) */
    const char *first_dir; /* the first directory given to project_add_paths */
    /* Directories whose files are another project's (the git work trees
     * below a directory linted that is in none: walk_git_roots), absolute;
     * project_list_paths passes over their files. */
    StrList exclude;
    struct AccessFacts *access;
    Problems schema_problems;
    /* What module resolution read of the file system (tsconfig and
     * package.json files, modules.h), shared by the module maps of the
     * analyses until one resolves every file (project_analyze, or
     * project_analyze_some without `changed`: after a tsconfig or
     * package.json changed), which reads them again. */
    struct ModuleEnv *modenv;
    /* The import graph of the editor's analyses (project.c's
     * resolve_mask), kept until the file slots change or an analysis
     * resolves every file. */
    struct ImportGraph *graph;
    /* The project facts of the editor's analyses as a fold over the
     * files (facts.h: facts_compute_keeping), kept between them; made
     * again by an analysis that resolves every file. */
    struct FactsFold *facts_fold;
    /* The same for the access facts (access.h: AccessFold): the index of
     * names and the sorted written keys. */
    struct AccessFold *access_fold;
    /* For --stats: the wall time of listing the files, of reading and
     * extracting them (with the deferred files extracted later), of the
     * rest of the analyses; the most threads an extraction used. */
    uint64_t walk_ns, extract_wall_ns, analyze_ns;
    unsigned threads_used;
} Project;

/* `config_path` is --config (NULL for the nearest .keylint.yml per file).
 * A bad --config adds a Problem; the project then uses defaults. */
Project *project_new(const char *config_path);
void project_free(Project *p);

/* Walk `paths` (none means ".") and read, parse and extract every file
 * found, skipping what the file's configuration ignores. */
void project_add_paths(Project *p, const char *const *paths, size_t n);
/* project_add_paths in two steps: list the files (walk, configurations,
 * ignores), returning the slot of the first one added; then read, parse
 * and extract those from that slot on. A run whose findings the cache
 * keeps (cache_findings.h) lists its files and extracts none. */
size_t project_list_paths(Project *p, const char *const *paths, size_t n);
void project_extract_listed(Project *p, size_t from);

/* The project `path` (a file or a directory, on disk or not) belongs to,
 * read whole when files are named alone (the command line's named files,
 * --changed, --stdin-filename; the language server's documents outside
 * its workspace) so that imports, helpers, schemas and the project-wide
 * rules resolve as in a run over the project: the git work tree holding
 * it (the nearest directory upward with a .git entry), else the directory
 * of its nearest configuration (.keylint.yml), else that of its nearest
 * package.json, else its own directory (a directory: itself). An absolute
 * path in `a`. NULL when there is none: neither `path` nor its directory
 * exists, or that directory is the file system's root, the home directory
 * or the temporary directory, too wide to be read as a project (the path
 * is then linted alone). */
const char *project_root_of(Arena *a, const char *path);

/* Resolve across files, compute project facts, run every enabled rule on
 * every file; p->diags holds the result, sorted (the previous analysis's
 * diagnostics are dropped). Can be called again after files change. */
void project_analyze(Project *p);

/* Set the text of a file (an editor's buffer: it wins over the disk), and
 * extract it again; adds the file when the project does not have it.
 * `path` is a display or absolute path. The text is copied. Call
 * project_analyze afterwards. Returns the file. */
const SourceFile *project_set_text(Project *p, const char *path, const char *text,
                                   size_t len);
/* The same after `edits` (syntax.h's SynEdit, in the order made) turned
 * the text last set into `text`: the parse re-reads only what they
 * touched. The result is that of project_set_text. */
struct SynEdit;
const SourceFile *project_edit_text(Project *p, const char *path, const char *text, size_t len,
                                    const struct SynEdit *edits, size_t nedits);

/* Re-read a file from disk (after it changed there), or drop it when it is
 * gone. */
void project_reload(Project *p, const char *path);

/* Drop a file from the project (deleted, or no longer wanted). */
void project_remove(Project *p, const char *path);

/* Every input problem, project-level and per file, sorted, appended to
 * `out`. */
void project_problems(const Project *p, Problems *out);
/* The same, with the problems of files limited to those listed in `only`
 * (display or absolute paths); project-level problems are all kept. */
void project_problems_of(const Project *p, const char *const *only, size_t nonly,
                         Problems *out);

/* The file with this display (or absolute) path, or NULL. */
const SourceFile *project_file(const Project *p, const char *path);
/* The same, writable: for the passes of project/ (sources.c). */
SourceFile *project_find_file(const Project *p, const char *path);

/* The configuration that applies to `path` (a file). Never NULL. */
const Config *project_config_for(Project *p, const char *path);

/* p->modenv, made when first asked for. */
struct ModuleEnv *project_modenv(Project *p);

/* Number of files whose IR was extracted (read and parsed). */
size_t project_linted_files(const Project *p);

/* The analysis an editor needs after an edit, faster than project_analyze
 * on a large project and with the same result for the files checked.
 *
 * `changed` lists the files (display or absolute paths) whose text was
 * set, reloaded, added or removed since the previous analysis (by either
 * function); only they, the files that import one of them (directly or
 * through others) and what those import are resolved again: every other
 * file's resolution cannot have changed and is kept. changed == NULL
 * resolves every file (do that first, and after a configuration, tsconfig
 * or package.json change). Project facts and table models are computed
 * from every file, and the findings about each configuration's inputs
 * (schemas, access patterns) made, as project_analyze does. The per-file
 * rules and inline suppressions run only on the files in `check` (display
 * or absolute paths), so p->diags holds their diagnostics (and those
 * configuration findings) only, sorted. With p->precheck (a run on named
 * files, the language server), the deferred files the project needs are
 * extracted first, as project_analyze does; those extracted now count as
 * changed (the files that import them are resolved again). */
void project_analyze_some(Project *p, const char *const *changed, size_t nchanged,
                          const char *const *check, size_t ncheck);

#endif

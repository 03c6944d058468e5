/* The cache between runs: what extraction leaves of each file, kept on
 * disk so that the next run on an unchanged file reads it instead of
 * parsing the file (docs/architecture.md, "A cache between runs").
 *
 * One entry per file, named by a hash of the file's path relative to
 * the project root, all in one pack, `entries.pack`, in the cache
 * directory (`.keylint-cache/` in the project root by default, which
 * holds a `.gitignore` of `*` and a CACHEDIR.TAG): read once when the
 * cache is opened, written once by cache_save. An entry is binary
 * (cache_bin.h), written straight from the IR by the thread that
 * extracted it:
 *
 *   format, keylint's version, the path ("src/a.ts"), the hashes of the
 *   text and the configuration, a byte of flags (set aside, a note, an
 *   IR), then
 *   the note                       the DeferNote, when the pre-check sets
 *                                  the file aside
 *   the IR, the problems           the FileIR (cache_ir.h), with its
 *                                  FileTables, and the notes extraction
 *                                  made, once parsed
 *
 * and is used only when the file's text (after the byte-order mark), its
 * path, keylint's version and every setting extraction reads
 * (extract_config_hash of the Config after overrides) are those it was
 * written for. The pre-check's answer is stored rather than keyed: it
 * depends on the text and the configuration only, so a run with the
 * pre-check and one without share the entry (a file set aside keeps its
 * note; a run that parses it adds the IR).
 *
 * Nothing of resolution or the facts is kept: they run over every file
 * at every run, so findings cannot depend on the cache. An entry that
 * cannot be read (damaged, cut short, another format or keylint, a
 * wrong shape: every read is checked against its end) is ignored with a
 * note and written again; a directory
 * that cannot be written is a note, and the run goes on without the
 * cache. The pack is written to a temporary file and renamed (files.h),
 * so concurrent runs read an old pack or a new one, never half of one;
 * each entry carries a hash, and a pack cut short keeps the entries
 * before the damage.
 *
 * A Cache is used by the extraction threads at once: its counters,
 * notes, the marks on the old pack's records and the new pack are behind
 * a lock; the old pack is read only. */
#ifndef KEYLINT_CACHE_H
#define KEYLINT_CACHE_H

#include "project.h"

typedef struct Cache Cache;

/* The cache in directory `dir` for the project whose root is `root`
 * (absolute: the entries name paths relative to it). Creates the
 * directory with its .gitignore; when that fails the cache is off (every
 * lookup misses, nothing is written) and a note says why. Never NULL. */
Cache *cache_open(const char *dir, const char *root);
/* The same; unless `asked` (the cache is on by default, not named on the
 * command line) a directory that cannot be made or written is no note:
 * the run goes on without the cache (or only reads it) and says nothing,
 * so that a read-only checkout is not told so at every run
 * (cache_unusable says why, for --stats). */
Cache *cache_open_as(const char *dir, const char *root, bool asked);
/* Why the cache's directory cannot be made or written; NULL when it can. */
const char *cache_unusable(const Cache *c);
void cache_free(Cache *c);
/* The root it was opened with. */
const char *cache_root(const Cache *c);
/* What its entries are keyed by: keylint's version and commit, and for a
 * build from a tree with uncommitted changes a hash of the binary. */
const char *cache_version(const Cache *c);

/* What stat says of a file (and the length of its text once read): a
 * record of the pack keeps it, and a file whose size, modification time
 * and change time (in nanoseconds) and inode are those of its record is not read again:
 * the record names the hash of its text. A file modified within two
 * seconds of the write of its record (or of the pack) is not vouched for
 * by its stat and is read (git's rule for "racy" index entries). */
typedef struct CacheStat {
    uint64_t size, mtime_ns, ctime_ns, ino, len;
} CacheStat;

/* stat(path) into *out (all 0 and false when it fails or is not a
 * regular file). */
bool cache_stat_of(const char *path, CacheStat *out);

/* What a file's entry is looked up by: computed once per extraction, and
 * used by both cache_load and cache_store. */
typedef struct CacheKey {
    char *rel;        /* malloc'd: the path relative to the root */
    char entry[48];   /* the entry's file name */
    char content[33]; /* hash of the text (cache_key_text) */
    char config[17];  /* extract_config_hash */
    CacheStat st;     /* the file before its text was read */
    bool looked;      /* cache_load_unread looked the entry up (and counted it) */
} CacheKey;

/* The key of `f` before its text is read (its path, configuration and
 * stat); false when the cache is off. Free with cache_key_free. */
bool cache_key(const Cache *c, const SourceFile *f, CacheKey *k);
/* The text (text, len) read: its hash into the key. */
void cache_key_text(CacheKey *k, const char *text, size_t len);
void cache_key_free(CacheKey *k);

/* Fill `f` from its entry without reading its text, when the file's stat
 * is that of the entry's record (not racy): as cache_load, and f->len is
 * the text's length; f->text stays NULL. False otherwise: the text is
 * read, then cache_key_text and, unless k->looked (the entry was looked
 * up and counted: it is of no use), cache_load. */
bool cache_load_unread(Cache *c, CacheKey *k, SourceFile *f, bool precheck);

/* Fill `f` from its entry: with `precheck` and a file the pre-check sets
 * aside, f->deferred and f->note; else f->ir and the problems extraction
 * made (added to f->problems). False (f untouched) when there is no
 * entry fit for it. */
bool cache_load(Cache *c, const CacheKey *k, SourceFile *f, bool precheck);

/* Write the entry of `f`, just extracted (f->ir) or set aside (f->note)
 * from (text, len); `problems_from`: the first of f->problems that
 * extraction made; `may_find`: the pre-check's answer on the text when
 * the caller asked it (1 or 0), else -1 (it is asked here). */
void cache_store(Cache *c, const CacheKey *k, const SourceFile *f, const char *text,
                 size_t len, size_t problems_from, int may_find);

/* Whether the entry of `f` (a file listed, not yet read) is of its text
 * now, and that text's hash into out: the record's when the file's stat
 * is its record's (not racy; *unread), else the file is read and hashed.
 * A file that cannot be read is current when it has no entry (out "").
 * False for a damaged record, a file without one, or one whose text
 * changed. A current record is marked used (a run that prunes keeps it). */
bool cache_content_of(Cache *c, const SourceFile *f, char out[33], bool *unread);
/* A run's findings came from the cache (cache_findings.h): count the
 * entries that vouched for it as hits (`unread` of them not read). */
void cache_count_kept(Cache *c, size_t hits, size_t unread);
/* The cache's 128-bit hash of s[0..n), as 32 hex digits. */
void cache_hash_hex(const void *s, size_t n, char out[33]);
/* The cache's directory (NULL when it is off); whether it is written. */
const char *cache_dir(const Cache *c);
bool cache_writable(const Cache *c);
/* A note among the cache's (cache_notes). */
void cache_note(Cache *c, const char *path, const char *msg);

/* Write the pack again when an entry was written this run or the pack
 * read was damaged (else nothing is written): the entries written, and
 * the old entries not written again; with `whole` (a run over the whole
 * project, whose files are all looked up) only those this run used, so
 * that deleted and renamed files leave nothing behind, and temporary
 * files older than a day (a run that was killed) are removed. */
void cache_save(Cache *c, bool whole);

/* How the run went: entries used (`unread`: of them, for files not read
 * at all), files parsed and entries written, whether the findings were
 * kept ones. */
typedef struct CacheCounts {
    size_t hits, unread, misses, written, ignored, pruned;
    size_t findings; /* 1: the run's findings were the cache's record */
} CacheCounts;
CacheCounts cache_counts(const Cache *c);

/* The notes: entries ignored (the first few by name, then how many
 * more), a directory or an entry that could not be written. */
const Problems *cache_notes(Cache *c);

#endif

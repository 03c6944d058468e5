/* What a run read and what it cost (--stats): files and bytes found,
 * parsed (some only later, because a parsed file needed a name they
 * define: defer.h), read but not parsed (the pre-check, precheck.h), and
 * skipped with why; the time of each phase. Filled from the projects of a
 * run (several when named files or --changed span several projects);
 * written by report/ (output.h: the JSON `stats` object; report.h: the
 * line on stderr). */
#ifndef KEYLINT_STATS_H
#define KEYLINT_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "project.h"

/* Why files were not read (walk.h's SourceSkip). */
typedef struct StatsSkips {
    size_t unreadable, too_large, binary, not_utf8;
} StatsSkips;

/* A count of files and their bytes. */
typedef struct StatsCount {
    size_t files;
    uint64_t bytes;
} StatsCount;

typedef struct RunStats {
    StatsCount found;     /* every file of the projects, less those ignored by configuration */
    StatsCount parsed;    /* parsed and extracted (with `later` and syntax errors) */
    StatsCount later;     /* of `parsed`: set aside by the pre-check, then needed */
    StatsCount empty;     /* of `parsed`: extraction found nothing in them */
    StatsCount read_only; /* read, noted, never parsed */
    StatsCount skipped;   /* not read: too large, binary, not UTF-8, unreadable */
    StatsSkips why;
    size_t syntax_errors; /* of `parsed`: the parser gave up */
    unsigned threads;     /* the most threads an extraction used */
    /* nanoseconds: wall time of listing the files, of the reads, parses
     * and extractions (run by `threads`), of resolution, facts and rules,
     * of the report; read, parse and extract are the sums over the files
     * (time spent by all threads), total the run's wall time */
    uint64_t walk_ns, extract_wall_ns, read_ns, parse_ns, extract_ns, analyze_ns, report_ns,
        total_ns;
} RunStats;

/* What a run read of DynamoDB code, for the summary of every run (not
 * only --stats): the key values, the data operations and the tables it
 * found. A run that found none of them says so, rather than look clean. */
typedef struct SeenCounts {
    size_t keys;   /* key values after resolution, in the files reported on */
    size_t ops;    /* data operations (get, put, query, scan, ...) in them */
    size_t tables; /* tables and their definitions the projects know of */
} SeenCounts;

/* Add what project `p` found to `s`: in the files named by `only` (display
 * or absolute paths; every file of `p` when `nonly` is 0), and the tables
 * of `p`'s table models, each definition once. */
void stats_seen(SeenCounts *s, const Project *p, const char *const *only, size_t nonly);

/* Add what project `p` read and spent to `s` (after its analysis). */
void stats_add_project(RunStats *s, const Project *p);
/* Set the report's and the run's times: the report started at
 * `report_start`, the run at `run_start` (clock_ns), both ending now. */
void stats_times(RunStats *s, uint64_t report_start, uint64_t run_start);

#endif

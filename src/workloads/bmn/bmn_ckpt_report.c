/* bmn_ckpt_report.c - lockstep bmn report FILE [--json]: a checkpoint's
 * search, progress, top lists, histogram and loops, read without changing
 * the file (bmn_ckpt_read verifies it as a resume would). */
#include <inttypes.h>
#include <stdlib.h>

#include "bmn_search.h"
#include "output.h"

/* Renders the report: the search's own result (bmn_result_text or
 * bmn_result_json, as `bmn search` prints it, less the backend), under
 * the file and how far its search got. */
static void render_report(const bmn_params *p, const bmn_state *st, int running, int json, FILE *out)
{
    double rate = st->seconds > 0 ? (double)st->done / st->seconds : 0;
    if (json) {
        fputc('{', out);
        ls_json_provenance(out);
        fputs(",\"checkpoint\":", out);
        ls_json_string(out, p->checkpoint);
        fprintf(out, ",\"running\":%s,\"target_deals\":%" PRIu64 ",\"interrupted\":%s,\"seconds\":%.6f,"
                "\"workload\":\"bmn\",", running < 0 ? "null" : running ? "true" : "false", p->deals,
                st->interrupted ? "true" : "false", st->seconds);
        bmn_result_json(p, st, out);
        fputs("}\n", out);
        return;
    }
    /* A week-long search is watched this way: how far it is, and whether
     * it is still going (its next commit will show more). */
    fprintf(out, "checkpoint: %s, %" PRIu64 " of %" PRIu64 " deals played (%.1f%% of the --deals of its last run)%s\n",
            p->checkpoint, st->done, p->deals, p->deals ? 100.0 * (double)st->done / (double)p->deals : 0.0,
            running > 0 ? "; a search is running on it now" : running == 0 ? "; no search is running on it" : "");
    fprintf(out, "bmn search: %" PRIu64 " deals from %" PRIu64 ", seed %" PRIu64 "%s\n", st->done, p->first, p->seed,
            running > 0 ? " (running)" : st->interrupted ? " (interrupted)" : "");
    fprintf(out, "time:     %.3f s, %.4g deals/s\n", st->seconds, rate);
    bmn_result_text(p, st, out);
}

int bmn_report_cmd(int argc, char **argv)
{
    int json = 0;
    ls_common common = {0}; /* --quiet, which every command takes: a report shows no progress */
    ls_error err = {{0}, 0};
    ls_opt opts[] = {
        {"json", LS_OPT_FLAG, &json, 0, 0, NULL, "print the report as one JSON object", NULL, NULL},
        LS_OPT_QUIET(&common),
    };
    const int nopts = (int)(sizeof opts / sizeof opts[0]);
    const char *pos[1];
    int npos = 0;
    int rc = ls_opts_parse(argc, argv, 3, opts, nopts, pos, &npos, 1, &err);
    if (rc == 1) {
        ls_opts_help(stdout, "lockstep bmn report FILE [--json]",
                     "Shows the search saved in a checkpoint (bmn search --checkpoint FILE): its seed and\n"
                     "options, how many deals it has played, its top lists, histogram and loops. Every\n"
                     "record is replayed first, as a resume would. The file is only read, also while a\n"
                     "search runs on it: the report is the state after its last commit, and says whether\n"
                     "a search is running on it now.",
                     opts, nopts);
        return 0;
    }
    if (rc == 0 && npos != 1)
        rc = ls_fail_usage(&err, "bmn report: expected one checkpoint file (see lockstep bmn report --help)");
    if (rc != 0)
        return ls_report(&err);
    bmn_params p;
    bmn_state *st = malloc(sizeof *st);
    if (!st)
        return fprintf(stderr, "lockstep: out of memory\n"), 1;
    int running = -1;
    if (bmn_ckpt_read(pos[0], &p, st, &running, &err) != 0) {
        free(st);
        return ls_report(&err);
    }
    ls_buffer b;
    rc = ls_buffer_open(&b, &err);
    if (rc == 0) {
        render_report(&p, st, running, json, b.f);
        rc = ls_buffer_emit(&b, stdout, "standard output", &err);
    }
    free(st->loops);
    free(st);
    return rc == 0 ? 0 : ls_report(&err);
}

/* run_report.c - the report of `lockstep WORKLOAD`: its JSON document
 * (which lockstep, the inputs, where it ran, the result) or the
 * workload's own report for people, written whole. */
#include <inttypes.h>

#include "commands.h"
#include "gpu_call.h"
#include "output.h"
#include "program_cache.h"

/* The devices of a run on several and what each did, as JSON members. */
static void print_devices_json(const ls_set *set, const ls_set_report *st, FILE *out)
{
    fprintf(out, ",\"ranks\":%d,\"wall_seconds\":%.6f,\"devices\":[", set->job.size, st->wall_seconds);
    for (int i = 0; i < st->ndevices; i++) {
        const ls_set_share *d = &st->dev[i];
        fprintf(out, "%s{\"label\":", i ? "," : "");
        ls_json_string(out, d->label);
        fputs(",\"backend\":", out);
        ls_json_string(out, d->backend);
        fprintf(out, ",\"rank\":%d,\"gpu\":%s,\"shape\":\"%s\",\"items\":%" PRIu64 ",\"seconds\":%.6f,"
                     "\"clock\":\"%s\",\"timer_rejected\":%s}",
                d->rank, d->is_gpu ? "true" : "false", ls_shape_name(d->shape), d->items, d->seconds,
                d->wall_clock ? "wall" : "device",
                d->timer_rejected ? "true" : "false");
    }
    fputc(']', out);
}

/* The GPU programs this process made (--timings): "programs":{"built":1,
 * "loaded":2,...,"cache":DIR or null,"note":TEXT or null}. */
static void print_programs_json(FILE *out)
{
    ls_program_stats st;
    ls_program_cache_stats(&st);
    fprintf(out,
            "\"programs\":{\"built\":%d,\"loaded\":%d,\"build_seconds\":%.6f,\"load_seconds\":%.6f,\"stale\":%d,"
            "\"damaged\":%d,\"refused\":%d,\"cache\":",
            st.built, st.loaded, st.build_seconds, st.load_seconds, st.stale, st.damaged, st.refused);
    if (st.dir[0])
        ls_json_string(out, st.dir);
    else
        fputs("null", out);
    fputs(",\"note\":", out);
    if (st.note[0])
        ls_json_string(out, st.note);
    else
        fputs("null", out);
    fputc('}', out);
}

/* The line of the report for people: nothing where no program was made
 * and all was well (a run on the CPU). */
static void print_programs(FILE *out)
{
    ls_program_stats st;
    ls_program_cache_stats(&st);
    if (!st.built && !st.loaded && !st.note[0])
        return;
    fprintf(out, "programs:   built %d (%.3f s), loaded %d from the cache (%.3f s)", st.built, st.build_seconds,
            st.loaded, st.load_seconds);
    if (st.dir[0])
        fprintf(out, " in %s", st.dir);
    if (st.stale || st.damaged || st.refused)
        fprintf(out, "; files replaced: %d stale, %d damaged, %d refused by the driver", st.stale, st.damaged,
                st.refused);
    if (st.note[0])
        fprintf(out, "; %s", st.note);
    fputc('\n', out);
}

/* --timings: "timings":{"open":0.21,...,"slowest_rank":{...},"programs":{...}}
 * (a member, after a comma), or the lines of the report for people. */
static void print_phases_json(const ls_phases *p, FILE *out)
{
    fputs(",\"timings\":{", out);
    for (int i = 0; i < p->n; i++)
        fprintf(out, "%s\"%s\":%.6f", i ? "," : "", p->name[i], p->seconds[i]);
    if (p->ranks > 1) {
        fprintf(out, ",\"ranks\":%d,\"slowest_rank\":{", p->ranks);
        for (int i = 0, first = 1; i < p->n; i++)
            if (p->slowest[i] >= 0) {
                fprintf(out, "%s\"%s\":%.6f", first ? "" : ",", p->name[i], p->slowest[i]);
                first = 0;
            }
        fputc('}', out);
    }
    if (p->cpu_threads)
        fprintf(out, ",\"cpu_threads\":%d", p->cpu_threads);
    if (p->input_beside_open > 0)
        fprintf(out, ",\"input_beside_open\":%.6f", p->input_beside_open);
    if (p->output_beside_open > 0)
        fprintf(out, ",\"output_beside_open\":%.6f", p->output_beside_open);
    if (p->since_start > 0)
        fprintf(out, ",\"since_start\":%.6f", p->since_start);
    fputc(',', out);
    print_programs_json(out);
    fputc('}', out);
}

static void print_phases(const ls_phases *p, FILE *out)
{
    fputs("timings:    ", out);
    for (int i = 0; i < p->n; i++)
        fprintf(out, "%s%s %.3f s", i ? ", " : "", p->name[i], p->seconds[i]);
    if (p->cpu_threads)
        fprintf(out, "; CPU threads %d", p->cpu_threads);
    if (p->input_beside_open > 0)
        fprintf(out, "; input read while opening %.3f s", p->input_beside_open);
    if (p->output_beside_open > 0)
        fprintf(out, "; output made ready while opening %.3f s", p->output_beside_open);
    if (p->since_start > 0)
        fprintf(out, "; %.3f s since the process started", p->since_start);
    fputc('\n', out);
    print_programs(out);
    if (p->ranks < 2)
        return;
    fprintf(out, "slowest of %d ranks: ", p->ranks);
    for (int i = 0, first = 1; i < p->n; i++)
        if (p->slowest[i] >= 0) {
            fprintf(out, "%s%s %.3f s", first ? "" : ", ", p->name[i], p->slowest[i]);
            first = 0;
        }
    fputc('\n', out);
}

/* The run's JSON document: which lockstep, the inputs, what ran where,
 * then the result's members. "device" is always a spec (opencl:0, or the
 * list a set was given) and "device_name" the device's own name. */
static void print_run_json(const ls_workload *w, const void *params, const ls_set *set, const ls_run *run,
                           FILE *out)
{
    fputc('{', out);
    ls_json_provenance(out);
    fprintf(out, ",\"workload\":\"%s\",", w->name);
    ls_cmd_params_json(out, w, params, 1);
    fprintf(out, ",\"device\":");
    ls_json_string(out, set->label);
    if (ls_set_several(set)) {
        print_devices_json(set, &run->report, out);
    } else {
        const ls_device *d = &set->dev[0];
        fprintf(out, ",\"backend\":\"%s\",\"device_index\":%d,\"shape\":\"%s\",\"device_name\":",
                d->backend->name, d->index, ls_shape_name(ls_device_shape(d)));
        ls_json_string(out, d->info.name);
        if (run->report.ndevices)
            fprintf(out, ",\"wall_seconds\":%.6f", run->report.wall_seconds);
    }
    fprintf(out, ",\"interrupted\":%s,\"seconds\":%.6f,", run->interrupted ? "true" : "false", run->seconds);
    ls_clock_json(out, &run->report.clock);
    fprintf(out, ",\"%s_per_second\":%.6g,\"digest\":\"%s\",", w->unit,
            run->seconds > 0 ? (double)run->items / run->seconds : 0.0, run->digest);
    w->result_json(params, run, out);
    if (run->phases.n)
        print_phases_json(&run->phases, out);
    fprintf(out, "}\n");
}

/* Writes a whole report to stdout at once, or fails: rendered in memory
 * first (src/output.h), so a script never reads half a JSON document. A
 * run whose output went to stdout reports on stderr instead. */
int ls_cmd_emit(const ls_workload *w, const void *params, const ls_set *s, const ls_run *run, int json,
                ls_error *err)
{
    ls_buffer b;
    if (ls_buffer_open(&b, err) != 0)
        return -1;
    if (json)
        print_run_json(w, params, s, run, b.f);
    else
        w->print(params, s, run, b.f);
    if (!json && run->phases.n)
        print_phases(&run->phases, b.f);
    if (w->output_on_stdout && w->output_on_stdout(params))
        return ls_buffer_emit(&b, stderr, "standard error", err);
    return ls_buffer_emit(&b, stdout, "standard output", err);
}

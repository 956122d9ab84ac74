/* manual.c - the man page and the bash completion, generated from the
 * command table (main.c) and from each command's --help, captured in the
 * styles of cli.h; see manual.h. */
#include "manual.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands/commands.h"
#include "version.h"

void ls_manual_intro(char *out, size_t len)
{
    char which[160];
    ls_cmd_set_workloads(which, sizeof which);
    snprintf(out, len,
             "Runs the same algorithms on OpenMP, OpenCL and CUDA and checks that they agree, bit for bit.\n"
             "Every command takes --help (or: lockstep help COMMAND), --json and --quiet; -V prints the\n"
             "version.\n"
             "--backend NAME[:INDEX] picks the device (default\n"
             "$LOCKSTEP_BACKEND, else auto: a CUDA GPU, else an OpenCL GPU, else OpenMP);\n"
             "%s also run on a set of devices (NAME:all, or a list such as\n"
             "cuda:0,openmp) and across MPI ranks under mpirun, with the same result as one device.",
             which);
}

/* The exit codes every command keeps (the README's table). */
static const char *const exit_codes[][2] = {
    {"0", "finished; the result was printed and every output file written"},
    {"1", "the run failed: a device, I/O or internal error, a disagreement in check, a failed conformance case, a "
          "lost MPI rank"},
    {"2", "bad input, refused before any computation: an option, an input file, an output path that cannot be "
          "written, MPI ranks started with different arguments"},
    {"77", "check: fewer than two devices could be compared; conformance --skip-unavailable: the backend cannot run "
           "here (test harnesses' \"skipped\")"},
    {"128+N", "stopped by signal N before it finished (130 Ctrl-C, 143 SIGTERM, 129 SIGHUP, 138 SIGUSR1, 140 "
              "SIGUSR2; under mpirun a signal to any rank stops every rank, and SIGUSR2 to mpirun is forwarded to "
              "them): the report says what was done, and no output file is written or changed"},
};

/* The man page's EXAMPLES: a command, and what it does. */
static const char *const examples[][2] = {
    {"lockstep devices", "the backends and devices here: type, memory, the largest Life grid each holds, or why a "
                         "backend cannot run"},
    {"lockstep graveler --battles 1e9 --seed 7", "a billion battles on the default device ($LOCKSTEP_BACKEND, else "
                                                 "auto)"},
    {"lockstep graveler --backend opencl:1 --json", "on the second OpenCL device, as one JSON document"},
    {"lockstep check graveler --battles 1e8", "the same battles on every device, compared: exit 1 when two disagree"},
    {"lockstep check all --backend openmp,opencl:0,openmp+opencl:0",
     "every workload at a small size on the CPU, an OpenCL device and the two as one set"},
    {"lockstep conformance --backend cuda:0 --junit conformance.xml",
     "the golden-answer cases on one GPU, and a JUnit file for CI"},
    {"lockstep bench all", "every workload timed on every device, in one table"},
    {"lockstep bmn play ---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---",
     "the longest game known: 8344 cards, 1164 tricks"},
    {"lockstep bmn search --deals 1e12 --backend cuda:all --checkpoint hunt.ckpt",
     "a search on every GPU, saved as it goes; the same command resumes it"},
    {"lockstep life --rule HighLife:P256,256 --steps 500 --every 5 --out run.gif",
     "2D HighLife on a bounded plane of 256x256 cells, as an animated GIF"},
    {"lockstep life --dims 2 --in glider.rle --size 64 --steps 100 --out after.rle", "a pattern from a file, run"},
    {"lockstep life --in gun.rle --rule b3s23:P120,80 --steps 400 --out run.mc",
     "a pattern placed where Golly places it, bgolly's answer (72 cells), written as Golly's macrocell"},
    {"lockstep life IN.data OUT.data 1024", "the PKU HPCGame problem G contest program's answer, byte for byte"},
    {"lockstep ray --size 1920x1080 --out card.png", "the business card, the same bytes on every device"},
    {"mpirun -np 2 lockstep life --dims 3 --size 2048 --steps 100 --backend cuda:all",
     "one grid over the GPUs of two ranks, the answer of one device"},
};

static const char *const environment[][2] = {
    {"LOCKSTEP_BACKEND", "the device spec used when --backend is not given (default auto); check and bench all "
                         "then run on every device, conformance on those it names"},
    {"LOCKSTEP_RANK_TIMEOUT", "seconds after which rank 0 of an MPI job presumes a rank that holds a chunk lost "
                              "(default 60)"},
    {"OMP_NUM_THREADS", "the threads of the openmp backend"},
    {"LOCKSTEP_CPU_ISA", "generic, avx2 or avx512: the widest compiled copy of the CPU code the openmp backend may "
                         "run (default: the widest this CPU runs; more than that is refused)"},
    {"LOCKSTEP_DEVICE_MEMORY_CAP", "BYTES (or with K, M or G), for the tests: every device is taken to have at most "
                                   "this much memory for a Life grid (devices' largest grid too), so that a grid too "
                                   "large for one device runs on a set"},
    {"LOCKSTEP_DEBUG_FAULT", "BACKEND:FIELD, for the tests: every run on BACKEND reports a wrong FIELD (or, with "
                             "FIELD conformance, fails every conformance case; with FIELD image_far, ray's image "
                             "moved beyond fast mode's bound), to show that check and conformance can fail; "
                             "BACKEND:N:FIELD, only the runs on device BACKEND:N"},
    {"LOCKSTEP_DEBUG_INEXACT_DIVIDE", "1, for the tests: every OpenCL device seems to lack correctly rounded "
                                      "divide and sqrt, so that what needs the exact float rule is refused "
                                      "(conformance: not supported)"},
    {"LOCKSTEP_DEBUG_TIMER", "zero, tiny or huge, for the tests: every GPU timer reads 0 s (1 ns, a thousand times "
                             "the wall time), to show that such a figure is replaced by the wall time and reported as "
                             "\"clock\":\"wall\""},
    {"LOCKSTEP_DEBUG_SUMMARY_PIECE", "BYTES, for the tests: a GPU slab of Life crosses to the host for its "
                                     "population and digest in pieces of about BYTES (default a 32nd of the slab, 8 to 64 MiB; at least "
                                     "a plane), to show that the pieces do not change the answer"},
    {"LOCKSTEP_DEBUG_SHARE", "refuse, for the tests: this process cannot open another's GPU memory (CUDA "
                             "IPC), so that Life's ranks exchange ghosts through host memory and MPI instead"},
    {"LOCKSTEP_DEBUG_EPOCH_WAIT", "1, for the benchmarks: Life's slabs on the GPUs of one process wait on the "
                                  "host after each epoch, as where ghosts cross the host, instead of queueing "
                                  "epochs back to back, to time what the waits cost"},
    {"LOCKSTEP_DEBUG_OUT_AHEAD", "0, for the benchmarks: Life's --out file of a whole grid (PKU, native) is "
                                 "created and its pages faulted in after the run, not while the devices open, to "
                                 "time what the early start saves"},
    {"LOCKSTEP_DEBUG_THREADS", "1, for the tests: each MPI rank says how many OpenMP threads it runs (ranks of "
                               "a node not bound to cores of their own take a share of its cores each)"},
    {"LOCKSTEP_DEBUG_STALL", "PHASE:HOW, for the tests: the first time the process reaches PHASE (start: before "
                             "it joins an MPI job; build: a GPU program build) it says so on stderr and waits there: "
                             "HOW resume, until a stop signal comes, then goes on; fail, then fails as a build a "
                             "signal broke; hang, for ever; so that signals can be sent while a phase provably "
                             "runs"},
    {"LOCKSTEP_DEBUG_SLOW_RUN", "RUN:SECONDS, for the tests: timed run RUN (from 1) of each bench takes SECONDS "
                                "longer, waited out and counted in its time, to show that bench warns when runs "
                                "spread"},
};

/* The installed documentation (ls_manual_set_docs). */
static const char *doc_dir;
static char *const *doc_files;
static int ndoc_files;

void ls_manual_set_docs(const char *dir, char *const *files, int n)
{
    doc_dir = dir;
    doc_files = files;
    ndoc_files = n;
}

/* ---- capturing a command's --help ---------------------------------------- */

/* Runs `lockstep NAME WORDS... --help` with ls_opts_help in `style`, with
 * stdout caught in a temporary file, and returns what it printed (an
 * allocated string), or NULL with err set. */
static char *capture_help(const ls_command *c, const char *w1, const char *w2, ls_help_style style, ls_error *err)
{
    char *argv[6] = {"lockstep", (char *)c->name};
    int argc = 2;
    if (w1)
        argv[argc++] = (char *)w1;
    if (w2)
        argv[argc++] = (char *)w2;
    argv[argc++] = "--help";
    argv[argc] = NULL;
    FILE *tmp = tmpfile();
    int saved = tmp ? dup(STDOUT_FILENO) : -1;
    if (saved < 0 || fflush(stdout) != 0 || dup2(fileno(tmp), STDOUT_FILENO) < 0) {
        if (tmp)
            fclose(tmp);
        if (saved >= 0)
            close(saved);
        ls_fail(err, "cannot capture the help of %s: no temporary file", c->name);
        return NULL;
    }
    ls_help_set_style(style);
    int rc = c->run(c, argc, argv);
    ls_help_set_style(LS_HELP_TEXT);
    int flushed = fflush(stdout) == 0;
    int restored = dup2(saved, STDOUT_FILENO) >= 0;
    close(saved);
    long size = flushed && restored && fseek(tmp, 0, SEEK_END) == 0 ? ftell(tmp) : -1;
    char *text = size >= 0 ? malloc((size_t)size + 1) : NULL;
    if (text && (fseek(tmp, 0, SEEK_SET) != 0 || fread(text, 1, (size_t)size, tmp) != (size_t)size)) {
        free(text);
        text = NULL;
    }
    fclose(tmp);
    if (!text || rc != 0) {
        free(text);
        ls_fail(err, "cannot capture the help of %s%s%s%s", c->name, w1 ? " " : "", w1 ? w1 : "",
                rc != 0 ? ": --help failed" : "");
        return NULL;
    }
    text[size] = 0;
    return text;
}

/* ---- the man page --------------------------------------------------------- */

/* One command's section: its --help as roff under the command line. */
static int roff_section(FILE *out, const ls_command *c, const char *w1, ls_error *err)
{
    char *roff = capture_help(c, w1, NULL, LS_HELP_ROFF, err);
    if (!roff)
        return -1;
    fputs(".SS \"", out);
    ls_roff_text(out, "lockstep ", 0);
    ls_roff_text(out, c->name, 1);
    if (w1) {
        fputc(' ', out);
        ls_roff_text(out, w1, 1);
    }
    fputs("\"\n", out);
    fputs(roff, out);
    free(roff);
    return 0;
}

static void roff_tagged(FILE *out, const char *tag, const char *text)
{
    fputs(".TP\n.B ", out);
    ls_roff_text(out, tag, 1);
    fputc('\n', out);
    ls_roff_text(out, text, 0);
    fputc('\n', out);
}

/* The sections the workloads add (Life's rules, grid suffixes, file
 * formats), each a .SH of paragraphs. */
static int workload_sections(FILE *out, ls_error *err)
{
    for (int w = 0; ls_workloads[w]; w++) {
        ls_manual_section sections[8];
        int n = ls_workloads[w]->manual ? ls_workloads[w]->manual(sections, 8) : 0;
        for (int i = 0; i < n; i++) {
            fputs(".SH \"", out);
            ls_roff_text(out, sections[i].title, 0);
            fputs("\"\n", out);
            ls_roff_text(out, sections[i].text, 0);
            fputc('\n', out);
        }
    }
    return ferror(out) ? ls_fail(err, "cannot write the man page") : 0;
}

/* SEE ALSO: the tools beside lockstep, and its documentation where it is
 * installed (or in the source tree, when the page is made by hand). */
static void see_also(FILE *out)
{
    fputs(".SH \"SEE ALSO\"\n.BR clinfo (1),\n.BR mpirun (1),\n.BR oclgrind (1).\n", out);
    if (!doc_dir || !ndoc_files) {
        fputs(".PP\nThe README and docs/ of the source tree.\n", out);
        return;
    }
    fputs(".PP\nThe documentation, installed with lockstep:\n.PP\n.nf\n", out);
    for (int i = 0; i < ndoc_files; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", doc_dir, doc_files[i]);
        ls_roff_text(out, path, 1);
        fputc('\n', out);
    }
    fputs(".fi\n", out);
}

int ls_manual_roff(FILE *out, const ls_command *cmds, int n, ls_error *err)
{
    fprintf(out, ".\\\" The man page of lockstep %s, generated by `lockstep --man` from the option tables of --help.\n",
            ls_version);
    fprintf(out, ".TH LOCKSTEP 1 \"\" \"lockstep %s\" \"User Commands\"\n.nh\n", ls_version);
    fputs(".SH NAME\nlockstep \\- the same algorithms on OpenMP, OpenCL and CUDA, checked to agree bit for bit\n", out);
    fputs(".SH SYNOPSIS\n.B lockstep\n.I COMMAND\n.RI [ options ]\n", out);
    fputs(".SH DESCRIPTION\n", out);
    char intro[1024];
    ls_manual_intro(intro, sizeof intro);
    ls_roff_text(out, intro, 0);
    fputs("\n.SH COMMANDS\n", out);
    for (int i = 0; i < n; i++) {
        char tag[96];
        snprintf(tag, sizeof tag, "%s%s%s", cmds[i].name, cmds[i].args[0] ? " " : "", cmds[i].args);
        roff_tagged(out, tag, cmds[i].summary);
    }
    fputs(".SH OPTIONS\nThe options of each command, as its --help lists them.\n", out);
    for (int i = 0; i < n; i++) {
        const ls_command *c = &cmds[i];
        if (!c->has_help)
            continue;
        if (c->workload && c->workload->nsubcommands) {
            /* The workload's table names its subcommands. */
            for (int k = 0; k < c->workload->nsubcommands; k++)
                if (roff_section(out, c, c->workload->subcommands[k].name, err) != 0)
                    return -1;
        } else if (roff_section(out, c, NULL, err) != 0) {
            return -1;
        }
    }
    if (workload_sections(out, err) != 0)
        return -1;
    fputs(".SH \"EXIT STATUS\"\n", out);
    for (size_t i = 0; i < sizeof exit_codes / sizeof exit_codes[0]; i++)
        roff_tagged(out, exit_codes[i][0], exit_codes[i][1]);
    fputs(".SH ENVIRONMENT\n", out);
    for (size_t i = 0; i < sizeof environment / sizeof environment[0]; i++)
        roff_tagged(out, environment[i][0], environment[i][1]);
    fputs(".SH EXAMPLES\n", out);
    for (size_t i = 0; i < sizeof examples / sizeof examples[0]; i++)
        roff_tagged(out, examples[i][0], examples[i][1]);
    see_also(out);
    return ferror(out) ? ls_fail(err, "cannot write the man page") : 0;
}

/* ---- bash completion ------------------------------------------------------- */

/* What a value placeholder asks for, for completion: device specs, files,
 * directories, workloads, or anything (no completion). */
static const char *value_kind(const char *option, const char *arg)
{
    if (strcmp(arg, "SPEC") == 0 || strcmp(arg, "LIST") == 0)
        return "spec";
    if (strcmp(arg, "DIR") == 0)
        return "dir";
    if (strcmp(arg, "FILE") == 0 || strcmp(arg, "PATH") == 0 || strcmp(arg, "IN") == 0 || strcmp(arg, "OUT") == 0)
        return "file";
    if (strcmp(option, "--workload") == 0)
        return "workload";
    return "text";
}

/* The options of one command path, as captured: "--name ARG" lines. */
typedef struct path_options {
    char path[64]; /* "graveler", "bmn search", "check ray" */
    char *lines;
} path_options;

#define MAX_PATHS 64

static int add_path(path_options *paths, int *n, const ls_command *c, const char *w1, ls_error *err)
{
    if (*n == MAX_PATHS)
        return ls_fail(err, "more than %d command paths to complete", MAX_PATHS);
    char *lines = capture_help(c, w1, NULL, LS_HELP_OPTIONS, err);
    if (!lines)
        return -1;
    snprintf(paths[*n].path, sizeof paths[*n].path, "%s%s%s", c->name, w1 ? " " : "", w1 ? w1 : "");
    paths[(*n)++].lines = lines;
    return 0;
}

/* Every command path and its options. Returns how many, or -1. */
static int collect_paths(const ls_command *cmds, int n, path_options *paths, char subs_words[][256], ls_error *err)
{
    int np = 0;
    for (int i = 0; i < n; i++) {
        const ls_command *c = &cmds[i];
        subs_words[i][0] = 0;
        if (!c->has_help)
            continue;
        if (c->takes_workload) {
            for (int w = 0; ls_workloads[w]; w++)
                if (add_path(paths, &np, c, ls_workloads[w]->name, err) != 0)
                    return -1;
            if (add_path(paths, &np, c, "all", err) != 0)
                return -1;
        } else if (c->workload && c->workload->nsubcommands) {
            const ls_workload *w = c->workload;
            for (int k = 0; k < w->nsubcommands; k++) {
                snprintf(subs_words[i] + strlen(subs_words[i]), 256 - strlen(subs_words[i]), "%s%s", k ? " " : "",
                         w->subcommands[k].name);
                if (add_path(paths, &np, c, w->subcommands[k].name, err) != 0)
                    return -1;
            }
        } else if (add_path(paths, &np, c, NULL, err) != 0) {
            return -1;
        }
    }
    return np;
}

/* The case branches of _lockstep_options: each path's option names. */
static void bash_options(FILE *out, const path_options *paths, int np)
{
    fputs("_lockstep_options() {\n    case \"$1\" in\n", out);
    for (int i = 0; i < np; i++) {
        fprintf(out, "    \"%s\") echo \"", paths[i].path);
        int first = 1;
        for (const char *p = paths[i].lines; *p;) {
            size_t len = strcspn(p, " \n");
            fprintf(out, "%s%.*s", first ? "" : " ", (int)len, p);
            first = 0;
            p += strcspn(p, "\n");
            p += *p == '\n';
        }
        fputs("\" ;;\n", out);
    }
    fputs("    esac\n}\n\n", out);
}

/* The branches of _lockstep_value for the options whose values are a
 * list: those a workload names (Life's --rule: the rule names), and
 * conformance's --case (the case names, in _lockstep_cases). These come
 * first: the first branch that matches an option decides. */
static int bash_value_lists(FILE *out, ls_error *err)
{
    for (int w = 0; ls_workloads[w]; w++) {
        const ls_workload *wl = ls_workloads[w];
        if (!wl->completions)
            continue;
        void *params = calloc(1, wl->params_size);
        ls_opt opts[LS_MAX_OPTS * 2];
        if (!params)
            return ls_fail(err, "out of memory");
        wl->params_default(params);
        int n = ls_cmd_bound_options(wl, params, 1, opts);
        for (int i = 0; i < n; i++) {
            const char *values[64];
            int nv = wl->completions(opts[i].name, values, 64);
            if (nv <= 0)
                continue;
            fprintf(out, "    --%s) echo \"choice", opts[i].name);
            for (int v = 0; v < nv; v++)
                fprintf(out, " %s", values[v]);
            fputs("\" ;;\n", out);
        }
        free(params);
    }
    fputs("    --case) echo case ;;\n", out);
    return 0;
}

/* Writes s as one single-quoted bash word. */
static void bash_quoted(FILE *out, const char *s)
{
    fputc('\'', out);
    for (; *s; s++) {
        if (*s == '\'')
            fputs("'\\''", out);
        else
            fputc(*s, out);
    }
    fputc('\'', out);
}

/* The case branches of _lockstep_value: what each option's value is, by
 * its placeholder (the first command that has the option decides). */
static int bash_values(FILE *out, const path_options *paths, int np, ls_error *err)
{
    fputs("_lockstep_value() {\n    case \"$1\" in\n", out);
    if (bash_value_lists(out, err) != 0)
        return -1;
    char seen[4096] = " ";
    for (int i = 0; i < np; i++) {
        for (const char *p = paths[i].lines; *p;) {
            char option[64] = "", arg[32] = "";
            size_t len = strcspn(p, "\n");
            if (sscanf(p, "%63s %31s", option, arg) == 2 && arg[0] != '-') {
                char key[80];
                snprintf(key, sizeof key, " %s ", option);
                if (!strstr(seen, key) && strlen(seen) + strlen(option) + 2 < sizeof seen) {
                    strcat(seen, option);
                    strcat(seen, " ");
                    if (strchr(arg, '|')) { /* exact|fast: the choices themselves */
                        fprintf(out, "    %s) echo \"choice ", option);
                        for (const char *q = arg; *q; q++)
                            fputc(*q == '|' ? ' ' : *q, out);
                        fputs("\" ;;\n", out);
                    } else {
                        fprintf(out, "    %s) echo %s ;;\n", option, value_kind(option, arg));
                    }
                }
            }
            p += len;
            p += *p == '\n';
        }
    }
    fputs("    esac\n}\n\n", out);
    return 0;
}

/* The completion function: what the words typed so far ask for. It splits
 * the line itself, so that ':' and '=' (word breaks to bash) stay inside
 * a word, and hands bash back only the part after its last break. */
static const char bash_main[] =
    "# Sets COMPREPLY to the candidates (after $1) that start with $1, less the part\n"
    "# of $1 that bash keeps because it lies before a ':' word break.\n"
    "_lockstep_reply() {\n"
    "    local word=$1 keep=\"\" c\n"
    "    shift\n"
    "    [[ $COMP_WORDBREAKS == *:* && $word == *:* ]] && keep=${word%\"${word##*:}\"}\n"
    "    COMPREPLY=()\n"
    "    for c in \"$@\"; do\n"
    "        [[ $c == \"$word\"* ]] && COMPREPLY+=(\"${c#\"$keep\"}\")\n"
    "    done\n"
    "}\n"
    "\n"
    "_lockstep() {\n"
    "    local line=${COMP_LINE:0:COMP_POINT}\n"
    "    local -a words\n"
    "    # Words as the shell will pass them: a backslash keeps a space in its\n"
    "    # word (a --case name, a file name), and is gone from it.\n"
    "    read -a words <<<\"$line\"\n"
    "    [[ -z $line || ( $line == *[[:space:]] && $line != *\\\\[[:space:]] ) ]] && words+=(\"\")\n"
    "    local n=${#words[@]}\n"
    "    local cur=${words[n-1]} prev=\"\" ls=${words[0]:-lockstep}\n"
    "    (( n > 1 )) && prev=${words[n-2]}\n"
    "    COMPREPLY=()\n"
    "    # The value of an option: --opt VALUE or --opt=VALUE.\n"
    "    local opt=\"\" val=$cur head=\"\"\n"
    "    if [[ $cur == --*=* ]]; then\n"
    "        opt=${cur%%=*} val=${cur#*=}\n"
    "        [[ $COMP_WORDBREAKS == *=* ]] || head=\"$opt=\"\n"
    "    elif [[ $prev == --* ]]; then\n"
    "        opt=$prev\n"
    "    fi\n"
    "    local kind=\"\"\n"
    "    [[ -n $opt ]] && kind=$(_lockstep_value \"$opt\")\n"
    "    if [[ -n $kind ]]; then\n"
    "        local list=${val%\"${val##*[,+]}\"} s\n"
    "        local -a specs\n"
    "        case $kind in\n"
    "        spec)\n"
    "            # a list (--backends openmp,opencl:0) completes its last item\n"
    "            for s in $(\"$ls\" devices --specs 2>/dev/null); do specs+=(\"$head$list$s\"); done\n"
    "            _lockstep_reply \"$head$val\" \"${specs[@]}\" ;;\n"
    "        workload) _lockstep_reply \"$head$val\" $(for s in $_lockstep_workloads float; do echo \"$head$s\"; done) ;;\n"
    "        choice*) _lockstep_reply \"$head$val\" $(for s in ${kind#choice }; do echo \"$head$s\"; done) ;;\n"
    "        case)\n"
    "            # a case name, its spaces escaped; what bash keeps before a ':' left out\n"
    "            local c q\n"
    "            for c in \"${_lockstep_cases[@]}\"; do\n"
    "                [[ $c == \"$val\"* ]] || continue\n"
    "                q=$(printf '%q' \"$c\")\n"
    "                [[ $COMP_WORDBREAKS == *:* && $val == *:* ]] && q=${q#*:}\n"
    "                COMPREPLY+=(\"$head$q\")\n"
    "            done ;;\n"
    "        file) COMPREPLY=($(compgen -f -- \"$val\")) ;;\n"
    "        dir) COMPREPLY=($(compgen -d -- \"$val\")) ;;\n"
    "        esac\n"
    "        return 0\n"
    "    fi\n"
    "    if (( n == 2 )); then\n"
    "        _lockstep_reply \"$cur\" $_lockstep_commands\n"
    "        return 0\n"
    "    fi\n"
    "    local path=${words[1]} subs\n"
    "    subs=$(_lockstep_subcommands \"${words[1]}\")\n"
    "    if [[ -n $subs ]]; then\n"
    "        if (( n == 3 )); then\n"
    "            _lockstep_reply \"$cur\" $subs\n"
    "            return 0\n"
    "        fi\n"
    "        path=\"${words[1]} ${words[2]}\"\n"
    "    fi\n"
    "    if [[ $cur == -* ]]; then\n"
    "        _lockstep_reply \"$cur\" $(_lockstep_options \"$path\")\n"
    "    else\n"
    "        COMPREPLY=($(compgen -f -- \"$cur\"))\n"
    "    fi\n"
    "    return 0\n"
    "}\n"
    "\n"
    "complete -F _lockstep lockstep\n";

int ls_manual_bash(FILE *out, const ls_command *cmds, int n, ls_error *err)
{
    path_options paths[MAX_PATHS];
    char(*subs)[256] = calloc((size_t)n, sizeof *subs);
    if (!subs)
        return ls_fail(err, "out of memory");
    int np = collect_paths(cmds, n, paths, subs, err);
    if (np < 0) {
        free(subs);
        return -1;
    }
    fprintf(out, "# bash completion for lockstep %s: commands, options, workloads and device specs.\n"
                 "# Generated by `lockstep --completion` from the option tables of --help; the\n"
                 "# device specs come from `lockstep devices --specs` when they are asked for.\n\n",
            ls_version);
    fputs("_lockstep_commands=\"", out);
    for (int i = 0; i < n; i++)
        fprintf(out, "%s%s", i ? " " : "", cmds[i].name);
    fputs(" help\"\n_lockstep_workloads=\"", out);
    for (int w = 0; ls_workloads[w]; w++)
        fprintf(out, "%s%s", w ? " " : "", ls_workloads[w]->name);
    fputs("\"\n\n", out);
    /* The word after the command: a workload (check, bench) or a subcommand (bmn). */
    fputs("_lockstep_subcommands() {\n    case \"$1\" in\n", out);
    for (int i = 0; i < n; i++) {
        if (cmds[i].takes_workload)
            fprintf(out, "    %s) echo \"$_lockstep_workloads all\" ;;\n", cmds[i].name);
        else if (subs[i][0])
            fprintf(out, "    %s) echo \"%s\" ;;\n", cmds[i].name, subs[i]);
    }
    fputs("    esac\n}\n\n", out);
    /* conformance --case: every case's name. */
    const ls_case *cases[256];
    int ncases = ls_cmd_conformance_cases(cases, 256);
    fputs("_lockstep_cases=(\n", out);
    for (int i = 0; i < ncases; i++) {
        fputs("    ", out);
        bash_quoted(out, cases[i]->name);
        fputc('\n', out);
    }
    fputs(")\n\n", out);
    bash_options(out, paths, np);
    int rc = bash_values(out, paths, np, err);
    fputs(bash_main, out);
    for (int i = 0; i < np; i++)
        free(paths[i].lines);
    free(subs);
    if (rc != 0)
        return -1;
    return ferror(out) ? ls_fail(err, "cannot write the completion script") : 0;
}

# tools/rename-15.sed - issue 15's renames (the device set), in the order
# they were made. To bring a branch written before them up to date:
#   git grep -lzE 'ls_session|split|scales|print_backend' -- src tests docs README.md meson.build \
#     | xargs -0 sed -i -E -f tools/rename-15.sed
# and move the files: git mv src/split.c src/set_run.c; git mv src/split.h src/set_run.h
# (src/commands.c became src/commands/*.c, src/conformance.c and
# src/devlist.[ch] moved to src/commands/, before these renames.)

# split.c, "the set runner": one run's items over the devices of a set.
s/\bsplit\.h\b/set_run.h/g
s/\bsrc\/split\.c\b/src\/set_run.c/g
s/\bsplit\.c\b/set_run.c/g
s/\bls_split_run\b/ls_set_run/g
s/\bls_split_ops\b/ls_set_ops/g
s/\bls_split_stats\b/ls_set_report/g
s/\bls_split_device\b/ls_set_share/g
s/\bLS_SPLIT_HINT_MAX\b/LS_SET_HINT_MAX/g
s/\bLS_SPLIT_MAX_DEVICES\b/LS_SET_MAX_DEVICES/g
s/\bgrv_split\b/grv_set_ops/g
s/\bbmn_split\b/bmn_set_ops/g

# ls_session, a device or "a group posing as its first device": the set.
s/\bls_session_open\b/ls_set_open/g
s/\bls_session_close\b/ls_set_close/g
s/\bls_session_spread\b/ls_set_several/g
s/\bls_session\b/ls_set/g

# The workload table's capability: "runs on a set".
s/\.scales\b/.on_set/g
s/->scales\b/->on_set/g
s/\bint scales;/int on_set;/g

# The report helper of a set, below the workloads.
s/\bls_print_backend\b/ls_set_print/g
s/\bls_cmd_check_spread\b/ls_cmd_check_set/g

# set_run.c's own names (internal to it).
s/\bLS_SPLIT_LOST_SECONDS\b/LS_SET_LOST_SECONDS/g
s/\btypedef struct split \{/typedef struct runner {/g
s/^\} split;/} runner;/g
s/\bsplit \*sp\b/runner *sp/g
s/\bconst split \*sp\b/const runner *sp/g
s/\bsplit sp = /runner sp = /g
s/the split's lock/the runner's lock/g

# Not renames, so not done by this script: what a branch written against
# ls_session must change by hand after running it (the layer's behaviour
# commit, "the set as a type", shows each):
#   - a GPU or CPU driver that takes one device: ls_set *s -> ls_device *s
#     (same fields: backend, index, info, ctx; set.h instead of backend.h);
#   - a workload's run, print and conformance case take ls_set *set; one
#     that runs on one device uses &set->dev[0], where it read s->backend,
#     s->ctx, s->info, s->index;
#   - ls_set_run(set, ops, job, origin, lo, hi, progress, &out->report, err):
#     the per-device report comes back in ls_run.report, so s->split->done,
#     ->seconds, ->interrupted become out->report.done and so on, and
#     ls_set_print(out, set, &run->report, unit) prints it;
#   - MPI rank and size in a workload: set->job.rank, set->job.size (not
#     ls_cluster_rank()/ls_cluster_size(); cluster.h is not included);
#   - a workload that now runs on a set sets .on_set = 1 in its table: the
#     command layer reads nothing else (mpirun, check and conformance on
#     sets, the messages that list such workloads);
#   - ls_collect_devices lost its `groups` argument (every command takes
#     sets), ls_dev_ref.group is ls_dev_ref.set, ls_cluster_refuse is
#     ls_cmd_refuse_ranks (src/commands/commands.h).

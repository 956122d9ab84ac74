#!/usr/bin/env python3
"""bench/pocl_launch_sim.py - how long one Graveler launch of the CPU kernel
shape takes on PoCL's CPU device when its threads run at unequal speeds,
against the time the same work would take shared perfectly (1.000).

PoCL's pthread/cpu driver hands a launch's work-groups to its threads in
grabs of ceil(remaining / threads) groups (pthread_scheduler.c,
get_wg_index_range). Graveler's CPU shape runs groups of one work-item:
 - fixed: before issue 35's fix, 4 groups a thread, each a fixed 1/groups
   of the launch's blocks of streams, so a launch ends when the slowest
   thread's last group does;
 - counter: each work-item takes blocks from a counter of the launch,
   GRAB at a time, at most CAP blocks (its 16-bit counters' bound), and a
   launch holds half of what its work-items may take.
Speeds are drawn per thread from N(1, sigma) (a core shared with other work,
a hyperthread's sibling, the operating system), fixed for the launch.

usage: pocl_launch_sim.py [TRIALS]"""
import math
import random
import statistics
import sys

CAP, GRAB, GROUPS_PER_THREAD = 1020, 4, 4


def launch(threads, groups, blocks, speeds, counter):
    """Makespan of one launch over the time of perfectly shared work."""
    pool, counter_at = groups, 0
    held = [0] * threads           # groups a thread has taken and not started
    left = [None] * threads        # blocks its running group may still take (counter)
    clock = [0.0] * threads
    idle = [False] * threads
    while not all(idle):
        t = min((i for i in range(threads) if not idle[i]), key=lambda i: clock[i])
        if left[t] is None:        # between groups: start one, taking more from PoCL's pool
            if held[t] == 0:
                if pool == 0:
                    idle[t] = True
                    continue
                held[t] = min(math.ceil(pool / threads), pool)
                pool -= held[t]
            held[t] -= 1
            if counter:
                left[t] = CAP
            else:
                clock[t] += blocks / groups / speeds[t]
            continue
        if counter_at >= blocks or left[t] < GRAB:
            left[t] = None
            continue
        n = min(GRAB, blocks - counter_at)
        counter_at += GRAB
        left[t] -= GRAB
        clock[t] += n / speeds[t]
    return max(clock) / (blocks / sum(speeds))


def main():
    trials = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    rng = random.Random(35)
    print("threads sigma  fixed  counter   (mean of %d launches; 1.000 = perfectly shared)" % trials)
    for sigma in (0.02, 0.05, 0.10):
        for threads in (1, 2, 16):
            groups = GROUPS_PER_THREAD * threads
            res = []
            for counter, blocks in ((False, groups * 1023), (True, groups * CAP // 2)):
                runs = [launch(threads, groups, blocks, [max(0.3, rng.gauss(1, sigma)) for _ in range(threads)],
                               counter) for _ in range(trials)]
                res.append(statistics.mean(runs))
            print("%7d %5.2f  %.3f  %.3f" % (threads, sigma, res[0], res[1]))


if __name__ == "__main__":
    main()

/* test_limits.c - what happens at the edges:
 *   - output (src/output.c): a write that fails midway (a full disk,
 *     simulated with RLIMIT_FSIZE) leaves nothing of the document; /dev/full
 *     gives a message; an atomic file appears whole on commit and not at
 *     all before it or after an abort, and an old file stays until then;
 *   - the exact player refuses a game above its hard cap with a message
 *     instead of running out of memory. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bmn_host.h"
#include "output.h"

#include "check.h"

static off_t size_of(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 ? sb.st_size : -1;
}

static char *read_all(const char *path)
{
    static char buf[256];
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

/* Counts the files in dir whose name starts with prefix. */
static int count_files(const char *dir, const char *prefix)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "ls -A '%s' | grep -c '^%s' > '%s/.count'", dir, prefix, dir);
    if (system(cmd) < 0)
        return -1;
    char path[600];
    snprintf(path, sizeof path, "%s/.count", dir);
    char *s = read_all(path);
    unlink(path);
    return s ? atoi(s) : -1;
}

static void test_partial_write(const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/out.json", dir);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || write(fd, "before\n", 7) != 7) {
        check(0, "scratch file");
        return;
    }
    /* A file size limit makes the kernel write part and then refuse, as a
     * disk that fills up does. */
    struct rlimit old, lim = {4096, 4096};
    getrlimit(RLIMIT_FSIZE, &old);
    lim.rlim_max = old.rlim_max;
    signal(SIGXFSZ, SIG_IGN);
    setrlimit(RLIMIT_FSIZE, &lim);
    static char doc[20000];
    memset(doc, 'x', sizeof doc);
    ls_error err = {{0}, 0};
    int rc = ls_write_all(fd, doc, sizeof doc, "out.json", &err);
    setrlimit(RLIMIT_FSIZE, &old);
    close(fd);
    check(rc != 0 && strstr(err.msg, "out.json") != NULL, "a write cut short by a full disk is an error naming the file");
    check(size_of(path) == 7, "and the part written is taken back: what was there before stays, nothing more");
}

static void test_dev_full(void)
{
    FILE *f = fopen("/dev/full", "w");
    if (!f)
        return;
    ls_buffer b;
    ls_error err = {{0}, 0};
    int rc = ls_buffer_open(&b, &err);
    if (rc == 0) {
        fprintf(b.f, "{\"a\":1}\n");
        rc = ls_buffer_emit(&b, f, "/dev/full", &err);
    }
    fclose(f);
    check(rc != 0 && strstr(err.msg, "No space") != NULL, "writing to /dev/full is an error saying why");
}

static void test_atomic(const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/result.txt", dir);
    FILE *f = fopen(path, "w");
    fputs("old\n", f);
    fclose(f);
    ls_atomic_file a;
    ls_error err = {{0}, 0};
    check(ls_atomic_open(&a, path, &err) == 0, "an atomic file opens next to its name");
    fputs("new\n", a.f);
    fflush(a.f);
    check(strcmp(read_all(path), "old\n") == 0, "until the commit, readers see the old file");
    check(ls_atomic_commit(&a, &err) == 0 && strcmp(read_all(path), "new\n") == 0,
          "after the commit, the new one, whole");
    check(count_files(dir, ".result.txt.tmp") == 0, "no temporary file is left");

    check(ls_atomic_open(&a, path, &err) == 0, "a second atomic file opens");
    fputs("half", a.f);
    ls_atomic_abort(&a);
    check(strcmp(read_all(path), "new\n") == 0 && count_files(dir, ".result.txt.tmp") == 0,
          "an abort leaves the old file and no temporary one");

    char sub[512];
    snprintf(sub, sizeof sub, "%s/adir", dir);
    mkdir(sub, 0755);
    err.usage = 0;
    check(ls_atomic_open(&a, sub, &err) != 0 && err.usage && strstr(err.msg, "adir") && strstr(err.msg, "directory") &&
              count_files(dir, ".adir.tmp") == 0,
          "a name taken by a directory is refused at open (exit 2), with no temporary file");
    check(ls_atomic_open(&a, "/nonexistent-dir/x", &err) != 0 && strstr(err.msg, "/nonexistent-dir/x"),
          "an atomic file in a missing directory is an error naming it");
}

static void test_player_cap(void)
{
    size_t n = BMN_HOST_MAX_CARDS / 2 + 1;
    uint8_t *cards = calloc(2 * n, 1);
    if (!cards)
        return;
    bmn_host_result r;
    char msg[300];
    int rc = bmn_host_play(cards, n, cards + n, n, NULL, &r, msg, sizeof msg);
    check(rc == -1 && strstr(msg, "at most") != NULL, "a game above the exact player's hard cap is refused with a message");
    rc = bmn_host_play(cards, n - 1, cards + n, n - 1, NULL, &r, msg, sizeof msg);
    check(rc == 0 && r.outcome == BMN_B_WINS, "a game at the cap plays");
    free(cards);
}

int main(void)
{
    char tmpl[] = "/tmp/lockstep-limits-XXXXXX";
    const char *dir = mkdtemp(tmpl);
    if (!dir) {
        printf("FAIL cannot make a temporary directory: %s\n", strerror(errno));
        return 1;
    }
    test_partial_write(dir);
    test_dev_full();
    test_atomic(dir);
    test_player_cap();
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        printf("note: could not remove %s\n", dir);
    return check_finish();
}

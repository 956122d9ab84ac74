/* test_output.c - what `--out` does with each kind of target (src/output.h):
 *   - character devices (null, full) and FIFOs are written through, never
 *     replaced; a FIFO is not opened by the check before a run (it would
 *     wait for a reader), its reader gets the whole contents, and a reader
 *     that closes early is a message, not the end of the process;
 *   - this process's stdout (/proc/self/fd/1, what /dev/stdout links to)
 *     is written through, after what was printed before, whether it is a
 *     pipe or a file it was redirected to;
 *   - a symbolic link to a file: the file is replaced, the link stays; to a
 *     device: written through; dangling: refused, nothing created;
 *   - names of 243 to 255 bytes work (the temporary name is shortened);
 *   - the temporary file of a write killed with SIGKILL is removed by the
 *     next write of the same target, or of another beside it, and a live
 *     writer's is not; ls_output_abandon removes those of the writes
 *     under way;
 *   - a file written through a mapping (ls_atomic_map) holds what was
 *     stored, or is not there after an abort; a target written through,
 *     or a file already written to, is not mapped; a SIGBUS in the mapping
 *     is one line and exit 1, the temporary file gone and the target as it
 *     was, and any other SIGBUS (sent, a fault elsewhere, one after the
 *     commit) ends the process as it does without the mapping.
 * Device nodes are made in a scratch directory (mknod, as root), so that a
 * broken writer can only replace those; without root, /dev/null and
 * /dev/full, which an ordinary user cannot replace, are used. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "output.h"

#include "check.h"

static const char *dir;

/* A write that waits for ever (a FIFO replaced, so its reader never gets
 * an end; a check that opened a FIFO) fails the test instead of hanging
 * it. */
static void timed_out(int sig)
{
    (void)sig;
    static const char msg[] = "FAIL timed out: a FIFO write or check waited for ever\n";
    if (write(1, msg, sizeof msg - 1) < 0)
        _exit(2);
    _exit(1);
}

static void path_in(char *out, size_t len, const char *name)
{
    snprintf(out, len, "%s/%s", dir, name);
}

/* Writes text to path through ls_atomic_*; 0 or -1 with err set. */
static int write_via(const char *path, const char *text, size_t n, ls_error *err)
{
    ls_atomic_file a;
    if (ls_atomic_open(&a, path, err) != 0)
        return -1;
    if (fwrite(text, 1, n, a.f) != n) {
        ls_atomic_abort(&a);
        return -1;
    }
    return ls_atomic_commit(&a, err);
}

static int write_text(const char *path, const char *text, ls_error *err)
{
    return write_via(path, text, strlen(text), err);
}

/* A file made directly (not through ls_atomic_*, whose writes remove
 * leftovers beside them): 0, or -1. */
static int make_file(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return -1;
    ssize_t n = write(fd, text, strlen(text));
    return close(fd) == 0 && n == (ssize_t)strlen(text) ? 0 : -1;
}

static char *read_text(const char *path)
{
    static char buf[4096];
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return NULL;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n < 0)
        return NULL;
    buf[n] = 0;
    return buf;
}

static int same_text(const char *path, const char *want)
{
    const char *got = read_text(path);
    return got && strcmp(got, want) == 0;
}

static mode_t type_of(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 ? st.st_mode & S_IFMT : 0;
}

/* Entries of d whose names start with prefix. */
static int count_named(const char *d, const char *prefix)
{
    DIR *h = opendir(d);
    if (!h)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(h)) != NULL)
        n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
    closedir(h);
    return n;
}

/* A character device in the scratch directory (root), or the system's. */
static void device(char *out, size_t len, const char *name, unsigned minor)
{
    path_in(out, len, name);
    int fd = -1;
    if (mknod(out, S_IFCHR | 0666, makedev(1, minor)) == 0 && (fd = open(out, O_WRONLY)) >= 0) {
        close(fd);
        return;
    }
    unlink(out);
    snprintf(out, len, "/dev/%s", name);
}

static void test_char_devices(void)
{
    char null[512], full[512];
    device(null, sizeof null, "null", 3);
    device(full, sizeof full, "full", 7);
    ls_error err = {{0}, 0};
    check(ls_output_check(null, &err) == 0, "a character device passes the check before a run");
    check(write_text(null, "data\n", &err) == 0 && type_of(null) == S_IFCHR,
          "writing to a null device succeeds and leaves the device node a device");
    check(count_named(dir, ".null") == 0, "and makes no temporary file");
    check(ls_output_check(full, &err) == 0, "a full device passes the check before a run");
    err.usage = 0;
    int rc = write_text(full, "data\n", &err);
    check(rc != 0 && strstr(err.msg, "No space") && strstr(err.msg, full) && !err.usage,
          "writing to a full device fails naming it and saying why (exit 1)");
    check(type_of(full) == S_IFCHR, "the full device is still a device, not a regular file");
}

/* A child that reads the FIFO at path into `into` (up to limit bytes,
 * then closes it). */
static pid_t reader(const char *path, const char *into, size_t limit)
{
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    alarm(20);
    int in = open(path, O_RDONLY), out = open(into, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    char buf[4096];
    size_t total = 0;
    ssize_t n;
    while (in >= 0 && out >= 0 && total < limit &&
           (n = read(in, buf, limit - total < sizeof buf ? limit - total : sizeof buf)) > 0) {
        if (write(out, buf, (size_t)n) != n)
            _exit(1);
        total += (size_t)n;
    }
    _exit(in >= 0 && out >= 0 ? 0 : 1);
}

static void test_fifo(void)
{
    char fifo[512], got[512];
    path_in(fifo, sizeof fifo, "fifo");
    path_in(got, sizeof got, "fifo.got");
    if (mkfifo(fifo, 0644) != 0) {
        check(0, "mkfifo");
        return;
    }
    /* A check that opened the FIFO would wait here for a reader for ever. */
    alarm(20);
    ls_error err = {{0}, 0};
    check(ls_output_check(fifo, &err) == 0, "a FIFO passes the check before a run without being opened");
    pid_t child = reader(fifo, got, (size_t)-1);
    int rc = write_text(fifo, "the whole grid\n", &err);
    int status = -1;
    waitpid(child, &status, 0);
    check(rc == 0 && status == 0 && same_text(got, "the whole grid\n"), "a FIFO's reader gets the whole contents");
    check(type_of(fifo) == S_IFIFO && count_named(dir, ".fifo") == 0, "the FIFO is still a FIFO; no temporary file");

    /* A reader that goes away after one byte: the rest cannot be written. */
    size_t big = 4 << 20;
    char *lots = malloc(big);
    if (!lots)
        return;
    memset(lots, 'x', big);
    child = reader(fifo, got, 1);
    rc = write_via(fifo, lots, big, &err);
    waitpid(child, &status, 0);
    check(rc != 0 && strstr(err.msg, "Broken pipe") && strstr(err.msg, "fifo"),
          "a FIFO whose reader closes early: a message naming it (and this process lives on)");
    free(lots);
    alarm(0);
}

/* Runs a write to `target` with fd 1 pointing at `onto`, after "first\n"
 * was printed through stdio. */
static int write_with_stdout(int onto, const char *target, ls_error *err)
{
    fflush(stdout);
    int saved = dup(1);
    if (saved < 0 || dup2(onto, 1) < 0)
        return -1;
    fputs("first\n", stdout);
    int rc = write_text(target, "second\n", err);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    return rc;
}

static void test_stdout(void)
{
    char link[512], file[512];
    path_in(link, sizeof link, "stdout");
    path_in(file, sizeof file, "stdout.txt");
    if (symlink("/proc/self/fd/1", link) != 0) {
        check(0, "symlink");
        return;
    }
    int p[2];
    if (pipe(p) != 0)
        return;
    ls_error err = {{0}, 0};
    int rc = write_with_stdout(p[1], link, &err);
    close(p[1]);
    char buf[256] = {0};
    ssize_t n = read(p[0], buf, sizeof buf - 1);
    close(p[0]);
    check(rc == 0 && n > 0 && strcmp(buf, "first\nsecond\n") == 0,
          "stdout (a pipe) as the output: the contents reach it, after what was printed before");
    check(type_of(link) == S_IFLNK && count_named(dir, ".stdout") == 0,
          "the link to stdout is still a link; no temporary file");

    /* stdout redirected to a file: appended there, not a new file. */
    int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    struct stat before, after;
    if (fd < 0 || fstat(fd, &before) != 0)
        return;
    rc = write_with_stdout(fd, link, &err);
    close(fd);
    check(rc == 0 && same_text(file, "first\nsecond\n") && stat(file, &after) == 0 && after.st_ino == before.st_ino,
          "stdout redirected to a file: the contents go into that same file, after what was printed");
    check(ls_output_check(link, &err) == 0, "stdout passes the check before a run");
}

static void test_symlinks(void)
{
    char real[512], sub[512], link[512], devlink[512], null[512], dangling[512], nothing[512];
    path_in(real, sizeof real, "real.txt");
    path_in(sub, sizeof sub, "sub");
    path_in(link, sizeof link, "sub/link.txt");
    mkdir(sub, 0755);
    ls_error err = {{0}, 0};
    if (write_text(real, "old\n", &err) != 0 || symlink("../real.txt", link) != 0) {
        check(0, "scratch files");
        return;
    }
    check(ls_output_check(link, &err) == 0 && write_text(link, "new\n", &err) == 0 && same_text(real, "new\n"),
          "a symbolic link to a file: the file it points to is replaced");
    char to[64] = {0};
    check(type_of(link) == S_IFLNK && readlink(link, to, sizeof to - 1) > 0 && strcmp(to, "../real.txt") == 0,
          "and the link itself stays as it was");
    check(count_named(dir, ".real") == 0 && count_named(sub, ".link") == 0, "no temporary file on either side");

    device(null, sizeof null, "null2", 3);
    path_in(devlink, sizeof devlink, "devlink");
    if (symlink(null, devlink) != 0)
        return;
    check(ls_output_check(devlink, &err) == 0 && write_text(devlink, "x\n", &err) == 0 &&
              type_of(devlink) == S_IFLNK && (strncmp(null, "/dev/", 5) == 0 || type_of(null) == S_IFCHR),
          "a symbolic link to a device: written through; link and device stay");

    path_in(dangling, sizeof dangling, "dangling.txt");
    path_in(nothing, sizeof nothing, "nothing.txt");
    if (symlink("nothing.txt", dangling) != 0)
        return;
    err.usage = 0;
    check(ls_output_check(dangling, &err) != 0 && err.usage && strstr(err.msg, "does not exist") &&
              strstr(err.msg, "dangling.txt"),
          "a dangling symbolic link is refused before a run (exit 2), naming it");
    ls_atomic_file a;
    check(ls_atomic_open(&a, dangling, &err) != 0 && type_of(dangling) == S_IFLNK &&
              type_of(nothing) == 0,
          "and at the write: nothing is created, the link stays");
}

static void killed_writer(const char *path);

/* Whether the temporary file starting with ".aé" has a name of whole
 * two-byte characters up to its "~HASH.tmp-" tail. */
static int leftover_is_utf8(void)
{
    DIR *h = opendir(dir);
    struct dirent *e;
    int ok = 0;
    while (h && (e = readdir(h)) != NULL) {
        if (strncmp(e->d_name, ".a\xc3\xa9", 4) != 0)
            continue;
        const unsigned char *c = (const unsigned char *)e->d_name + 2;
        while (c[0] == 0xc3 && c[1] == 0xa9)
            c += 2;
        ok = *c == '~';
    }
    if (h)
        closedir(h);
    return ok;
}

static void test_long_names(void)
{
    static const size_t lengths[] = {243, 244, 250, 255};
    ls_error err = {{0}, 0};
    char name[300], path[800];
    for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
        memset(name, 'n', lengths[i]);
        name[lengths[i]] = 0;
        path_in(path, sizeof path, name);
        char what[100];
        snprintf(what, sizeof what, "a name of %zu bytes is written (and no temporary file is left)", lengths[i]);
        check(ls_output_check(path, &err) == 0 && write_text(path, "long\n", &err) == 0 && same_text(path, "long\n") &&
                  count_named(dir, ".n") == 0,
              what);
        unlink(path);
    }
    /* "a" and 127 two-byte characters: the shortened name is cut between
     * them (it keeps an odd number of bytes). */
    strcpy(name, "a");
    for (int i = 0; i < 127; i++)
        strcat(name, "\xc3\xa9");
    path_in(path, sizeof path, name);
    check(write_text(path, "utf8\n", &err) == 0 && same_text(path, "utf8\n"), "a name of \"a\" and 127 two-byte characters");
    killed_writer(path);
    check(count_named(dir, ".a\xc3\xa9") == 1 && leftover_is_utf8(), "its temporary name is cut between characters");
    check(write_text(path, "utf8\n", &err) == 0 && count_named(dir, ".a\xc3\xa9") == 0, "and removed by the next write");
    unlink(path);
    memset(name, 'n', 256);
    name[256] = 0;
    path_in(path, sizeof path, name);
    err.usage = 0;
    check(ls_output_check(path, &err) != 0 && err.usage, "a name of 256 bytes is refused before a run");
}

/* A child that opens path for writing, writes 1 MB and is killed. */
static void killed_writer(const char *path)
{
    pid_t pid = fork();
    if (pid == 0) {
        ls_atomic_file a;
        ls_error err;
        if (ls_atomic_open(&a, path, &err) != 0)
            _exit(1);
        for (int i = 0; i < 1024; i++)
            fprintf(a.f, "%01023d\n", i);
        fflush(a.f);
        raise(SIGKILL);
    }
    int status;
    waitpid(pid, &status, 0);
}

static void test_leftovers(const char *name, const char *prefix)
{
    char path[800], what[200];
    path_in(path, sizeof path, name);
    ls_error err = {{0}, 0};
    killed_writer(path);
    snprintf(what, sizeof what, "%.40s...: a write killed mid-write leaves its temporary file", name);
    check(count_named(dir, prefix) == 1, what);
    killed_writer(path);
    snprintf(what, sizeof what, "%.40s...: a second one removes it (and leaves its own)", name);
    check(count_named(dir, prefix) == 1, what);
    snprintf(what, sizeof what, "%.40s...: the next write removes it", name);
    check(write_text(path, "done\n", &err) == 0 && same_text(path, "done\n") && count_named(dir, prefix) == 0, what);
    unlink(path);
}

static void test_stale_temporaries(void)
{
    test_leftovers("victim.txt", ".victim.txt.tmp-");
    char name[256];
    memset(name, 'v', 250);
    name[250] = 0;
    test_leftovers(name, ".vvvvvvvvvv");

    /* A writer still running (its own lock, as another process's would
     * be: flock locks belong to the open file), a leftover of it made by
     * hand, a leftover of another target and names that are not
     * temporaries. */
    char path[512], stale[512], other[512], shorter[512], plain[512];
    path_in(path, sizeof path, "live.txt");
    path_in(stale, sizeof stale, ".live.txt.tmp-AbCdEf");
    path_in(other, sizeof other, ".live.txtx.tmp-AbCdEf");
    path_in(shorter, sizeof shorter, ".live.txt.tmp-AbC");
    path_in(plain, sizeof plain, "live.txt.tmp-AbCdEf");
    ls_error err = {{0}, 0};
    ls_atomic_file live;
    if (ls_atomic_open(&live, path, &err) != 0 || make_file(stale, "stale") != 0 || make_file(other, "other") != 0 ||
        make_file(shorter, "short") != 0 || make_file(plain, "plain") != 0) {
        check(0, "scratch files");
        return;
    }
    fputs("live\n", live.f);
    check(count_named(dir, ".live.txt.tmp-") == 3, "a live writer's temporary file and a leftover");
    check(write_text(path, "second\n", &err) == 0, "a second write of the same target");
    check(access(live.tmp, F_OK) == 0, "leaves the live writer's temporary file alone");
    check(access(stale, F_OK) != 0, "and removes the leftover");
    check(access(other, F_OK) != 0, "and another target's leftover beside it (a killed write of that name)");
    check(access(shorter, F_OK) == 0 && access(plain, F_OK) == 0, "and no file that is not a temporary file");

    /* Another target's live writer is left alone by a write beside it,
     * and ls_output_remove_leftovers (--frames) removes what a killed
     * write of any target left. */
    char beside[512], left[512];
    path_in(beside, sizeof beside, "beside.txt");
    path_in(left, sizeof left, ".gone.txt.tmp-Zz9Yy8");
    check(write_text(beside, "beside\n", &err) == 0 && access(live.tmp, F_OK) == 0,
          "a write of another target leaves the live writer's temporary file alone");
    check(make_file(left, "left") == 0, "a leftover of another killed write");
    ls_output_remove_leftovers(dir);
    check(access(left, F_OK) != 0 && access(live.tmp, F_OK) == 0,
          "ls_output_remove_leftovers removes it, and not the live writer's");
    check(ls_atomic_commit(&live, &err) == 0 && same_text(path, "live\n"), "the live writer still commits");
    unlink(shorter);
    unlink(plain);
    unlink(beside);
}

/* ls_output_abandon, as a second stop signal's handler calls it: the
 * temporary files of the writes under way go, and their targets stay as
 * they were (a child process, which ends at once as the handler does). */
static void test_abandon(void)
{
    char path[512];
    path_in(path, sizeof path, "abandoned.txt");
    ls_error err = {{0}, 0};
    if (write_text(path, "old\n", &err) != 0) {
        check(0, "scratch file");
        return;
    }
    pid_t pid = fork();
    if (pid == 0) {
        ls_atomic_file a, b;
        if (ls_atomic_open(&a, path, &err) != 0 || ls_atomic_open(&b, path, &err) != 0)
            _exit(1);
        fputs("new and partial", a.f);
        fflush(a.f);
        ls_output_abandon();
        _exit(count_named(dir, ".abandoned.txt.tmp-") == 0 ? 0 : 3);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    check(WIFEXITED(status) && WEXITSTATUS(status) == 0, "ls_output_abandon removes every write's temporary file");
    check(same_text(path, "old\n"), "and the target stays as it was");
    unlink(path);
}

/* ---- ls_atomic_map ------------------------------------------------------ */

#define MAPPED_SIZE (3 * 4096 + 17) /* pages and a part of one */

/* Maps a new write of path: the mapping, or NULL (a failed check). */
static unsigned char *map_write(ls_atomic_file *a, const char *path)
{
    ls_error err = {{0}, 0};
    void *data = NULL;
    if (ls_atomic_open(a, path, &err) != 0)
        return NULL;
    if (ls_atomic_map(a, MAPPED_SIZE, &data, &err) != 0) {
        ls_atomic_abort(a);
        return NULL;
    }
    return data;
}

static int holds_pattern(const char *path)
{
    int fd = open(path, O_RDONLY);
    static unsigned char buf[MAPPED_SIZE + 1];
    ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf) : -1;
    if (fd >= 0)
        close(fd);
    if (n != MAPPED_SIZE)
        return 0;
    for (size_t i = 0; i < MAPPED_SIZE; i++)
        if (buf[i] != (unsigned char)(i * 7))
            return 0;
    return 1;
}

/* The SIGBUS action now: 1 when it is `before`'s. */
static int sigbus_action_is(const struct sigaction *before)
{
    struct sigaction now;
    return sigaction(SIGBUS, NULL, &now) == 0 && now.sa_handler == before->sa_handler &&
           (now.sa_flags & SA_SIGINFO) == (before->sa_flags & SA_SIGINFO);
}

static void test_map_writes(void)
{
    char path[512];
    path_in(path, sizeof path, "mapped.bin");
    ls_error err = {{0}, 0};
    ls_atomic_file a;
    struct sigaction before;
    sigaction(SIGBUS, NULL, &before);
    unsigned char *data = map_write(&a, path);
    check(data != NULL, "a new file is mapped");
    check(!sigbus_action_is(&before), "while it is mapped, SIGBUS is watched");
    if (data) {
        for (size_t i = 0; i < MAPPED_SIZE; i++)
            data[i] = (unsigned char)(i * 7);
        check(ls_atomic_commit(&a, &err) == 0 && holds_pattern(path) && count_named(dir, ".mapped.bin.tmp-") == 0,
              "a mapped write, committed, holds what was stored, and no temporary file is left");
        check(sigbus_action_is(&before), "after the commit, SIGBUS's action is the one before");
    }
    if (write_text(path, "old\n", &err) != 0 || !(data = map_write(&a, path))) {
        check(0, "a mapped write of a file that exists");
        return;
    }
    memset(data, 'x', MAPPED_SIZE);
    ls_atomic_abort(&a);
    check(same_text(path, "old\n") && count_named(dir, ".mapped.bin.tmp-") == 0,
          "a mapped write, aborted, leaves the file as it was and no temporary file");
    check(sigbus_action_is(&before), "after the abort, SIGBUS's action is the one before");
    void *none = NULL;
    if (ls_atomic_open(&a, path, &err) == 0) {
        fputs("streamed ", a.f);
        check(ls_atomic_map(&a, MAPPED_SIZE, &none, &err) == 1 && none == NULL, "a file already written to is not mapped");
        fputs("on\n", a.f);
        check(ls_atomic_commit(&a, &err) == 0 && same_text(path, "streamed on\n"), "and its stream goes on");
    }
    char null[512];
    device(null, sizeof null, "null", 3);
    if (ls_atomic_open(&a, null, &err) == 0) {
        check(ls_atomic_map(&a, MAPPED_SIZE, &none, &err) == 1, "a character device is not mapped (written through)");
        ls_atomic_abort(&a);
    }
    unlink(path);
}

/* What a child made of a SIGBUS: its status, and what it said on stderr
 * (in `said`). `how`: 0 a fault in the mapping (the file cut short under
 * it), 1 a SIGBUS sent to it, 2 a fault in another mapping, 3 a fault in
 * another mapping after the commit. `mapped` 0: the same without a
 * mapping of ls_atomic_map, to compare with (a sanitizer's runtime, say,
 * has its own SIGBUS handler). */
static int sigbus_child(const char *path, int how, int mapped, char *said, size_t len)
{
    int pipefd[2];
    if (pipe(pipefd) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        /* A handler that gives the fault back to itself for ever: killed by
         * SIGALRM, which fails the check, rather than a hang. */
        signal(SIGALRM, SIG_DFL);
        alarm(10);
        dup2(pipefd[1], 2);
        ls_atomic_file a;
        unsigned char *data = mapped ? map_write(&a, path) : NULL;
        char other[600];
        snprintf(other, sizeof other, "%s.other", path);
        int fd = open(other, O_RDWR | O_CREAT | O_TRUNC, 0600);
        volatile unsigned char *elsewhere = fd >= 0 && ftruncate(fd, 4096) == 0
            ? mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
        if ((mapped && !data) || elsewhere == (void *)MAP_FAILED || ftruncate(fd, 0) != 0)
            _exit(3);
        ls_error err = {{0}, 0};
        if (how == 0 && ftruncate(fileno(a.f), 0) == 0)
            data[2 * 4096] = 1;
        else if (how == 1)
            raise(SIGBUS);
        else if (how == 2)
            elsewhere[0] = 1;
        else if (how == 3 && (!mapped || ls_atomic_commit(&a, &err) == 0))
            elsewhere[0] = 1;
        _exit(0);
    }
    close(pipefd[1]);
    ssize_t n = read(pipefd[0], said, len - 1);
    said[n > 0 ? n : 0] = 0;
    close(pipefd[0]);
    int status;
    waitpid(pid, &status, 0);
    return status;
}

static void test_map_sigbus(void)
{
    char path[512], said[2048];
    path_in(path, sizeof path, "bus.bin");
    ls_error err = {{0}, 0};
    if (write_text(path, "old\n", &err) != 0) {
        check(0, "scratch file");
        return;
    }
    int status = sigbus_child(path, 0, 1, said, sizeof said);
    check(WIFEXITED(status) && WEXITSTATUS(status) == 1, "a SIGBUS in the mapping: exit 1");
    check(strncmp(said, "lockstep: cannot write ", 23) == 0 && strstr(said, "SIGBUS") &&
              strchr(said, '\n') == said + strlen(said) - 1,
          "a SIGBUS in the mapping: one line that names the file and says SIGBUS");
    check(same_text(path, "old\n") && count_named(dir, ".bus.bin.tmp-") == 0,
          "a SIGBUS in the mapping: the file as it was, no temporary file");
    static const char *const others[] = {"a SIGBUS sent to the process", "a SIGBUS fault in another mapping",
                                         "a SIGBUS fault after the commit"};
    for (int how = 1; how <= 3; how++) {
        int without = sigbus_child(path, how, 0, said, sizeof said);
        status = sigbus_child(path, how, 1, said, sizeof said);
        char what[160];
        snprintf(what, sizeof what, "%s ends it as it does without a mapping (killed by signal %d)", others[how - 1],
                 WIFSIGNALED(without) ? WTERMSIG(without) : 0);
        check(WIFSIGNALED(without) && status == without, what);
    }
    /* The temporary files of the children killed by a signal go with the
     * next write of the target. */
    check(write_text(path, "new\n", &err) == 0 && count_named(dir, ".bus.bin.tmp-") == 0, "their leftovers go");
    char other[600];
    snprintf(other, sizeof other, "%s.other", path);
    unlink(other);
    unlink(path);
}

int main(void)
{
    char tmpl[] = "/tmp/lockstep-output-XXXXXX";
    setvbuf(stdout, NULL, _IOLBF, 0);
    signal(SIGALRM, timed_out);
    dir = mkdtemp(tmpl);
    if (!dir) {
        printf("FAIL cannot make a temporary directory: %s\n", strerror(errno));
        return 1;
    }
    test_char_devices();
    test_fifo();
    test_stdout();
    test_symlinks();
    test_long_names();
    test_stale_temporaries();
    test_abandon();
    test_map_writes();
    test_map_sigbus();
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        printf("note: could not remove %s\n", dir);
    return check_finish();
}

// Preloaded into ztprov by the footprint benchmark: at exit, copies /proc/self/status (VmHWM, the peak
// resident set of this process alone) and /proc/self/smaps (what is resident, per mapping) to
// $ZTBENCH_PEAK_RSS_DIR/<pid>.status and <pid>.smaps. The child's ru_maxrss cannot tell this: Linux
// carries the high-water mark of the process that started it (here the Python benchmark) across exec.
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void copy(const char *from, const char *to) {
    char buffer[2048];
    int in = open(from, O_RDONLY), out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ssize_t count;
    while (in >= 0 && out >= 0 && (count = read(in, buffer, sizeof buffer)) > 0) {
        if (write(out, buffer, (size_t)count) != count) break;
    }
    if (in >= 0) close(in);
    if (out >= 0) close(out);
}

__attribute__((destructor)) static void record_peak(void) {
    const char *directory = getenv("ZTBENCH_PEAK_RSS_DIR");
    char path[512];
    if (directory == NULL) return;
    snprintf(path, sizeof path, "%s/%d.status", directory, (int)getpid());
    copy("/proc/self/status", path);
    snprintf(path, sizeof path, "%s/%d.smaps", directory, (int)getpid());
    copy("/proc/self/smaps", path);
}

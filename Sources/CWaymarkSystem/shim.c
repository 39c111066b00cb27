#define _GNU_SOURCE 1
#include <sys/ioctl.h>
#include <malloc.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <grp.h>
#include <sys/random.h>

#include "CWaymarkSystem.h"

int waymark_accept4(int fd, int flags) {
    return accept4(fd, NULL, NULL, flags);
}

int waymark_peer_credentials(int fd, pid_t *pid, uid_t *uid, gid_t *gid) {
    struct ucred credentials;
    socklen_t length = sizeof credentials;
    int result = getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length);
    if (result == 0) {
        *pid = credentials.pid;
        *uid = credentials.uid;
        *gid = credentials.gid;
    }
    return result;
}

int waymark_malloc_trim(size_t pad) {
    return malloc_trim(pad);
}

int waymark_malloc_fix_thresholds(int bytes) {
    return mallopt(M_MMAP_THRESHOLD, bytes) && mallopt(M_TRIM_THRESHOLD, bytes);
}

int waymark_posix_openpt(int flags) {
    return posix_openpt(flags);
}

int waymark_grantpt(int fd) {
    return grantpt(fd);
}

int waymark_unlockpt(int fd) {
    return unlockpt(fd);
}

int waymark_ptsname_r(int fd, char *buffer, size_t length) {
    return ptsname_r(fd, buffer, length);
}

int waymark_terminal_columns(int fd, unsigned short *columns) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) == -1) return -1;
    *columns = size.ws_col;
    return 0;
}

int waymark_peer_pidfd(int fd) {
    // SO_PEERPIDFD (Linux 6.5) is missing from older headers.
    int pidfd = -1;
    socklen_t length = sizeof pidfd;
    if (getsockopt(fd, SOL_SOCKET, 77, &pidfd, &length) == -1) return -1;
    return pidfd;
}

int waymark_pidfd_alive(int pidfd) {
    return (int)syscall(SYS_pidfd_send_signal, pidfd, 0, NULL, 0);
}

int waymark_getgrouplist(const char *user, gid_t group, gid_t *groups, int *count) {
    return getgrouplist(user, group, groups, count);
}

long waymark_getrandom(void *buffer, size_t count) {
    return (long)getrandom(buffer, count, 0);
}

#define _GNU_SOURCE 1
#include <sys/ioctl.h>
#include <malloc.h>
#include <stdlib.h>
#include <sys/socket.h>

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

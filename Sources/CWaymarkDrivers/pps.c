// The RFC 2783 PPS API on Linux's /dev/ppsN (linux/pps.h), as timepps.h implements it, minus
// the waiting: PPS_FETCH is always asked with a zero timeout, which returns at once.
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/pps.h>

#include "CWaymarkDrivers.h"

static int checked_ioctl(int fd, unsigned long request, void *argument) {
    int result;
    do {
        result = ioctl(fd, request, argument);
    } while (result < 0 && errno == EINTR);
    return result < 0 ? -errno : 0;
}

int waymark_pps_capabilities(int fd) {
    int mode = 0;
    int result = checked_ioctl(fd, PPS_GETCAP, &mode);
    return result < 0 ? result : mode & 0x7fffffff;
}

int waymark_pps_capture_assert(int fd) {
    struct pps_kparams params;
    memset(&params, 0, sizeof params);
    int result = checked_ioctl(fd, PPS_GETPARAMS, &params);
    if (result < 0) return result;
    if ((params.mode & PPS_CAPTUREASSERT) && (params.mode & PPS_TSFMT_TSPEC)) return 0;
    // Changing the parameters needs CAP_SYS_TIME: a source that already captures assert
    // events (pps-gpio, pps-ldisc, pps_parport do by default) is taken as it is.
    params.api_version = PPS_API_VERS;
    params.mode |= PPS_CAPTUREASSERT | PPS_TSFMT_TSPEC;
    return checked_ioctl(fd, PPS_SETPARAMS, &params);
}

int waymark_pps_fetch_assert(int fd, waymark_pps_assert *event) {
    struct pps_fdata data;
    memset(&data, 0, sizeof data);  // timeout 0 s, flags 0: return at once
    int result = checked_ioctl(fd, PPS_FETCH, &data);
    if (result < 0) return result;
    event->sequence = data.info.assert_sequence;
    event->seconds = data.info.assert_tu.sec;
    event->nanoseconds = data.info.assert_tu.nsec;
    return 0;
}

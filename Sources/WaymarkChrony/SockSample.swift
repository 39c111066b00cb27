import CWaymarkChrony
import WaymarkTime

extension waymark_sock_sample {
    /// The SOCK refclock record of `sample`, or `nil` when its time does not fit the platform's
    /// `time_t`. The full offset is sent (`pulse` 0): a paired PPS sample knows its second.
    ///
    /// `tv` is the system time of the event in whole microseconds and `offset` the true minus
    /// system time to the nanosecond, as gpsd sends them: chronyd takes `tv` as the moment its
    /// clock read and `offset` as the clock's error then, and the error changes by parts per
    /// million over the microsecond `tv` leaves out. (Adding those nanoseconds to the offset,
    /// so that `tv + offset` is the true time, made chronyd's offset wrong by them: 0 to 1 µs,
    /// the same in every sample of a run, enough to set the SOCK source apart from the SHM unit
    /// with the same samples, a falseticker when their intervals are that narrow.)
    init?(_ sample: TimeSample) {
        let (seconds, nanoseconds) = splitSeconds(sample.systemNanoseconds)
        guard let tvSeconds = time_t(exactly: seconds) else { return nil }
        self.init(
            tv: timeval(tv_sec: tvSeconds, tv_usec: suseconds_t(nanoseconds / 1000)), offset: sample.offsetSeconds, pulse: 0,
            leap: sample.leap.rawValue, _pad: 0, magic: Int32(WAYMARK_SOCK_MAGIC))
    }
}

import CWaymarkChrony
import WaymarkTime

extension waymark_sock_sample {
    /// The SOCK refclock record of `sample`, or `nil` when its time does not fit the platform's
    /// `time_t`. The full offset is sent (`pulse` 0): a paired PPS sample knows its second.
    init?(_ sample: TimeSample) {
        let (seconds, nanoseconds) = splitSeconds(sample.systemNanoseconds)
        guard let tvSeconds = time_t(exactly: seconds) else { return nil }
        let microseconds = nanoseconds / 1000
        // tv states whole microseconds; the offset carries the nanoseconds it leaves out, so that
        // tv + offset is the true time.
        let leftOut = nanoseconds - microseconds * 1000
        self.init(
            tv: timeval(tv_sec: tvSeconds, tv_usec: suseconds_t(microseconds)),
            offset: (Double(sample.offsetNanoseconds) + Double(leftOut)) / 1e9, pulse: 0, leap: sample.leap.rawValue,
            _pad: 0, magic: Int32(WAYMARK_SOCK_MAGIC))
    }
}

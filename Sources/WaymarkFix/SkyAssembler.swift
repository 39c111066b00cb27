import WaymarkNMEA
import WaymarkLocation

/// Builds the receiver's sky view (``SkyView``) from its GSV lists, without allocating per
/// sentence: the satellites are gathered in fixed storage, and copied out once per view.
///
/// A GSV list is one talker's (and, from NMEA 4.10, one signal's) sentences 1 to n. Lists of
/// different systems and signals add up to one sky; the sky is complete each time a list
/// ends. The first list begun in an epoch starts the next sky, and so does a list that comes
/// again within one (the same talker and signal, from its first sentence). So a receiver
/// that sends every list each cycle, one that sends them every few cycles, and one that
/// spreads a list over several cycles are all read whole. A list whose sentences do not
/// follow 1, 2, … n is dropped. A signal of a satellite listed again replaces the earlier
/// one, and at most ``SkyView/capacity`` signals are kept, so a receiver or a corrupted
/// stream repeating GSV cannot grow the sky (docs/epochs.md, "The sky view").
struct SkyAssembler: Sendable {
    /// The signals of the sky being read, in the receiver's order (``SkyView/capacity`` of them).
    private var building = InlineArray<140, SkySatellite>(
        repeating: SkySatellite(
            identity: SatelliteIdentity(.gps, 1, prn: 1), signal: 0, elevation: nil, azimuth: nil, signalStrength: nil))
    private var count = 0
    /// How many of ``building`` come from lists read to their end.
    private var complete = 0
    /// One bit per satellite and signal id in ``building``.
    private var present = InlineArray<57, UInt64>(repeating: 0)
    /// One bit per list (system and signal id) begun in this sky.
    private var listsBegun = InlineArray<3, UInt64>(repeating: 0)
    /// The list being read: its talker, length and the next sentence's number.
    private var list: (talker: Talker, length: Int, next: Int)?
    /// Whether an epoch began since the last list did.
    private var isNewEpoch = false
    /// Whether lists ended since the last ``view(used:)``.
    private var hasNewList = false
    /// The satellites of the last complete sky.
    private var published: [SkySatellite] = []

    init() {}

    /// Reads one GSV sentence of `talker`. A talker that is no GNSS system's (a proprietary
    /// `PQGSV`) names no system for its numbers: its sentences are skipped.
    mutating func add(_ gsv: GSV, talker: Talker) {
        if case .other = talker { return }
        guard let length = gsv.messageCount, let number = gsv.messageNumber, number >= 1, number <= length else {
            dropList()
            return
        }
        let system = talker.constellation
        // The signal is each sentence's own (a list of several signals names it in its last).
        let signal = gsv.signalID ?? 0
        if number == 1 {
            dropList()
            let key = (system.map { $0.rawValue } ?? 8) << 4 | signal
            if isNewEpoch || listsBegun[key >> 6] & (1 << UInt64(key & 63)) != 0 { startSky() }
            isNewEpoch = false
            listsBegun[key >> 6] |= 1 << UInt64(key & 63)
            list = (talker, length, 1)
        }
        guard let current = list, current.talker == talker, current.length == length, current.next == number else {
            dropList()
            return
        }
        for index in 0..<gsv.satelliteCount {
            let satellite = gsv.satellites[index]
            guard let identity = SatelliteIdentity(number: satellite.number, system: system) else { continue }
            add(SkySatellite(
                identity: identity, signal: signal, elevation: satellite.elevation, azimuth: satellite.azimuth,
                signalStrength: satellite.signalStrength))
        }
        if number == length {
            list = nil
            complete = count
            hasNewList = true
        } else {
            list?.next = number + 1
        }
    }

    /// A new epoch begins: its first list starts the next sky.
    mutating func startEpoch() {
        isNewEpoch = true
    }

    /// The last complete sky, with `used` as the epoch's GSA sentences said.
    mutating func view(used: SatelliteSet) -> SkyView {
        publish()
        return SkyView(satellites: published, used: used)
    }

    /// Keeps the lists read to their end as the last complete sky, if any ended since the last
    /// time (once per view; more often only for a receiver that repeats a list within one).
    private mutating func publish() {
        guard hasNewList else { return }
        published = (0..<complete).map { building[$0] }
        hasNewList = false
    }

    private mutating func add(_ satellite: SkySatellite) {
        let bit = satellite.identity.index << 4 | satellite.signal
        if present[bit >> 6] & (1 << UInt64(bit & 63)) != 0 {
            for index in 0..<count where building[index].isSameSignal(as: satellite) {
                building[index] = satellite
                return
            }
        }
        guard count < min(building.count, SkyView.capacity) else { return }
        building[count] = satellite
        count += 1
        present[bit >> 6] |= 1 << UInt64(bit & 63)
    }

    private mutating func startSky() {
        publish()
        count = 0
        complete = 0
        present = InlineArray(repeating: 0)
        listsBegun = InlineArray(repeating: 0)
    }

    /// Forgets the signals of a list that did not reach its end.
    private mutating func dropList() {
        list = nil
        guard count > complete else { return }
        count = complete
        present = InlineArray(repeating: 0)
        for index in 0..<count {
            let bit = building[index].identity.index << 4 | building[index].signal
            present[bit >> 6] |= 1 << UInt64(bit & 63)
        }
    }
}

import Testing

/// The suites that run the real chronyd, one at a time: each takes free NTP SHM units, which
/// another could take at the same moment.
@Suite(.serialized) enum RealChronyd {}

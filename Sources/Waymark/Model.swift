public import WaymarkLocation

// The model an app names, stated here so that `import Waymark` is all it needs: each type of
// the public model (module WaymarkLocation, shared with the daemon) is re-declared by name.
// Not `@_exported`: the client library's API is this list, not whatever the model module holds.

/// A location, as Core Location's `CLLocation`.
public typealias Location = WaymarkLocation.Location
/// Where a location came from.
public typealias SourceInformation = WaymarkLocation.SourceInformation
/// The dilutions of precision a receiver reported.
public typealias DilutionOfPrecision = WaymarkLocation.DilutionOfPrecision
/// The dimension of a position fix.
public typealias FixMode = WaymarkLocation.FixMode
/// How a fix was obtained.
public typealias FixQuality = WaymarkLocation.FixQuality
/// Satellites in view and used, per constellation.
public typealias SatelliteCounts = WaymarkLocation.SatelliteCounts
/// A satellite navigation system.
public typealias Constellation = WaymarkLocation.Constellation
/// A UTC instant.
public typealias Timestamp = WaymarkLocation.Timestamp
/// A calendar date in UTC.
public typealias CivilDate = WaymarkLocation.CivilDate
/// One element of a live-updates sequence, as `CLLocationUpdate`.
public typealias LocationUpdate = WaymarkLocation.LocationUpdate
/// Why a location request failed.
public typealias LocationError = WaymarkLocation.LocationError
/// Why updates are not flowing, as `CLServiceSession.Diagnostic`.
public typealias Diagnostics = WaymarkLocation.Diagnostics
/// The kind of activity live updates are tuned for, as `CLLocationUpdate.LiveConfiguration`.
public typealias LiveConfiguration = WaymarkLocation.LiveConfiguration
/// The daemon's state at a glance (``WaymarkAgent/status()``).
public typealias StatusReport = WaymarkLocation.StatusReport

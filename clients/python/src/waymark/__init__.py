"""Waymark's Python client: location updates from the Waymark daemon with Core Location's
semantics, over its Unix socket (docs/protocol.md). asyncio, standard library only.

    import asyncio, waymark

    async def main():
        async for update in waymark.live_updates(waymark.LiveConfiguration.FITNESS):
            if update.location:
                print(update.location.latitude, update.location.longitude)
            if update.is_stationary:
                print("paused until the device moves")

    asyncio.run(main())
"""

from .client import (
    MAXIMUM_TIMEOUT,
    Client,
    last_known_location,
    live_updates,
    monitor,
    monitor_visits,
    request_location,
    shared,
    status,
    stop_visit_monitoring,
    visits,
)
from .connection import PROTOCOL_VERSION
from .monitor import Monitor
from .sessions import AuthorizationRequirement, BackgroundActivitySession, ServiceSession
from .errors import DaemonProtocolError, DaemonUnavailable, ErrorCode, LocationDenied, LocationError, LocationUnknown, Refused, WaymarkError
from .model import (
    CONSTELLATIONS,
    AppSessions,
    Batching,
    Diagnostics,
    DilutionOfPrecision,
    EventLoopCounts,
    FixMode,
    FixQuality,
    BeaconIdentityCondition,
    CircularGeographicCondition,
    LastKnownLocation,
    LiveConfiguration,
    Location,
    LocationUpdate,
    MonitorEvent,
    MonitorRecord,
    MonitorState,
    PowerLedgerEntry,
    PowerTransition,
    SatelliteCounts,
    SessionCounts,
    Source,
    SourceInformation,
    StatusReport,
    UnsupportedCondition,
    Visit,
)

__version__ = "0.1.0"

__all__ = [
    "CONSTELLATIONS",
    "BeaconIdentityCondition",
    "CircularGeographicCondition",
    "MAXIMUM_TIMEOUT",
    "PROTOCOL_VERSION",
    "AppSessions",
    "AuthorizationRequirement",
    "BackgroundActivitySession",
    "Batching",
    "Client",
    "DaemonProtocolError",
    "DaemonUnavailable",
    "Diagnostics",
    "DilutionOfPrecision",
    "ErrorCode",
    "EventLoopCounts",
    "FixMode",
    "FixQuality",
    "LastKnownLocation",
    "LiveConfiguration",
    "Location",
    "LocationDenied",
    "LocationError",
    "LocationUnknown",
    "LocationUpdate",
    "Monitor",
    "MonitorEvent",
    "MonitorRecord",
    "MonitorState",
    "PowerLedgerEntry",
    "PowerTransition",
    "Refused",
    "SatelliteCounts",
    "ServiceSession",
    "SessionCounts",
    "Source",
    "SourceInformation",
    "StatusReport",
    "UnsupportedCondition",
    "Visit",
    "WaymarkError",
    "last_known_location",
    "live_updates",
    "monitor",
    "monitor_visits",
    "request_location",
    "shared",
    "status",
    "stop_visit_monitoring",
    "visits",
]

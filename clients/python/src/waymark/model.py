"""The model types, as the Swift library's (``Location``, ``LocationUpdate``, ``Diagnostics``,
``StatusReport``) with snake_case names, decoded strictly from the protocol's JSON
(docs/protocol.md)."""

from __future__ import annotations

import dataclasses
import datetime
import enum
import math
import re
from typing import Any

from .errors import DaemonProtocolError
from .wire import Fields


class LiveConfiguration(str, enum.Enum):
    """What kind of activity a live-updates subscription serves (Core Location's
    ``CLLocationUpdate.LiveConfiguration``; docs/semantics.md has what each does)."""

    DEFAULT = "default"
    AUTOMOTIVE_NAVIGATION = "automotiveNavigation"
    OTHER_NAVIGATION = "otherNavigation"
    FITNESS = "fitness"
    AIRBORNE = "airborne"


@dataclasses.dataclass(frozen=True)
class Batching:
    """Deferred delivery, as the Swift library's ``Batching`` and Core Location's
    ``allowDeferredLocationUpdates(untilTraveled:timeout:)``: locations are held until the device
    has travelled ``distance`` metres along them (``None``: time alone) or the oldest held one is
    ``timeout`` seconds old, then delivered together; a batch holds at most ``capacity`` updates
    (1 ... 1000), the newest kept (docs/semantics.md, "Delivery options")."""

    timeout: float
    distance: float | None = None
    capacity: int = 100

    def members(self) -> dict[str, float | int]:
        """The ``batch`` member of ``startLiveUpdates``."""
        members: dict[str, float | int] = {"timeout": float(self.timeout), "capacity": int(self.capacity)}
        if self.distance is not None:
            members["distance"] = float(self.distance)
        return members


@dataclasses.dataclass(frozen=True)
class LastKnownLocation:
    """The newest location the daemon has, however old, as the Swift library's
    ``LastKnownLocation`` and Core Location's ``CLLocationManager.location``: ``age`` is the
    seconds since the daemon got it, on its monotonic clock."""

    location: Location
    age: float


def decode_last_known_location(fields: Fields) -> LastKnownLocation | None:
    """The result of ``lastKnownLocation``: ``None`` when ``location`` is null."""
    location = fields.optional_fields("location")
    if location is None:
        return None
    age = fields.double("age")
    if not (math.isfinite(age) and age >= 0):
        raise DaemonProtocolError(f"{fields.path}.age: expected a finite number of seconds, at least 0, found {age}")
    return LastKnownLocation(decode_location(location), age)


class FixMode(str, enum.Enum):
    """The fix's dimension."""

    NO_FIX = "noFix"
    TWO_DIMENSIONAL = "twoDimensional"
    THREE_DIMENSIONAL = "threeDimensional"


class FixQuality(str, enum.Enum):
    """How the fix was obtained."""

    UNKNOWN = "unknown"
    AUTONOMOUS = "autonomous"
    DIFFERENTIAL = "differential"
    RTK_FIXED = "rtkFixed"
    RTK_FLOAT = "rtkFloat"
    DEAD_RECKONING = "deadReckoning"
    GNSS_DEAD_RECKONING = "gnssDeadReckoning"
    TIME_ONLY = "timeOnly"
    SIMULATED = "simulated"


#: The constellations a location counts satellites of, in the protocol's names.
CONSTELLATIONS = ("gps", "sbas", "galileo", "beidou", "qzss", "glonass", "navic")


@dataclasses.dataclass(frozen=True)
class SourceInformation:
    """Where the location came from."""

    is_simulated_by_software: bool
    is_produced_by_accessory: bool


@dataclasses.dataclass(frozen=True)
class DilutionOfPrecision:
    """Dilutions of precision reported by the receiver (``None`` when it sent none)."""

    horizontal: float | None = None
    vertical: float | None = None
    position: float | None = None


@dataclasses.dataclass(frozen=True)
class SatelliteCounts:
    """Satellites in view and used, per constellation (names in ``CONSTELLATIONS``; zero
    counts are absent)."""

    in_view: dict[str, int] = dataclasses.field(default_factory=dict)
    used: dict[str, int] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(frozen=True)
class Location:
    """A location with every field of Core Location's ``CLLocation`` a GNSS receiver can give.
    As in Core Location, a negative accuracy, speed or course means unknown. ``timestamp`` is
    timezone-aware UTC (to the microsecond)."""

    latitude: float
    longitude: float
    altitude: float
    ellipsoidal_altitude: float
    horizontal_accuracy: float
    vertical_accuracy: float
    speed: float
    speed_accuracy: float
    course: float
    course_accuracy: float
    is_velocity_derived: bool
    timestamp: datetime.datetime
    source_information: SourceInformation
    mode: FixMode
    receiver_mode: FixMode | None
    quality: FixQuality
    dilution: DilutionOfPrecision
    satellites: SatelliteCounts


@dataclasses.dataclass(frozen=True)
class Diagnostics:
    """Why an update is missing something, or came at all (Core Location's diagnostic
    properties; ``daemon_unavailable`` is the client's own: it lost the daemon and reconnects)."""

    authorization_denied: bool = False
    authorization_denied_globally: bool = False
    authorization_restricted: bool = False
    authorization_request_in_progress: bool = False
    insufficiently_in_use: bool = False
    location_unavailable: bool = False
    accuracy_limited: bool = False
    service_session_required: bool = False
    daemon_unavailable: bool = False

    @property
    def names(self) -> list[str]:
        """The protocol's names of the diagnostics that are set, in a stable order."""
        return [_camel(field.name) for field in dataclasses.fields(self) if getattr(self, field.name)]

    @property
    def is_empty(self) -> bool:
        return not self.names

    @classmethod
    def from_names(cls, names: list[str]) -> Diagnostics:
        """The diagnostics named; names this version does not know are ignored (a newer
        daemon may add some)."""
        known = {_camel(field.name): field.name for field in dataclasses.fields(cls)}
        return cls(**{known[name]: True for name in names if name in known})


@dataclasses.dataclass(frozen=True)
class LocationUpdate:
    """One element of a live-updates stream, as Core Location's ``CLLocationUpdate``."""

    location: Location | None
    is_stationary: bool = False
    diagnostics: Diagnostics = Diagnostics()


@dataclasses.dataclass(frozen=True)
class Source:
    """Where the daemon's locations come from: ``kind`` is ``simulated``, ``replay`` or ``serial``."""

    kind: str
    description: str
    is_simulated: bool


@dataclasses.dataclass(frozen=True)
class PowerLedgerEntry:
    """Time and energy spent in one receiver power state since the daemon started."""

    state: str
    seconds: float
    milliwatt_hours: float


@dataclasses.dataclass(frozen=True)
class PowerTransition:
    """One receiver power transition; ``time`` in seconds since the Unix epoch."""

    time: float
    from_state: str
    to_state: str
    reason: str


@dataclasses.dataclass(frozen=True)
class EventLoopCounts:
    """The daemon's event loop: timers pending and descriptors registered."""

    timers: int
    descriptors: int


@dataclasses.dataclass(frozen=True)
class SessionCounts:
    """Sessions the connected clients hold and what apps that are away keep to re-take
    (docs/semantics.md, "Consumers that come and go")."""

    service_sessions: int = 0
    background_activity_sessions: int = 0
    kept_subscriptions: int = 0
    kept_requests: int = 0
    kept_background_activity_sessions: int = 0


@dataclasses.dataclass(frozen=True)
class AppSessions:
    """One app's session counts in ``status``."""

    app: str
    counts: SessionCounts


@dataclasses.dataclass(frozen=True)
class StatusReport:
    """The daemon's state at a glance: the answer to ``status()`` (``waymark status`` prints it)."""

    daemon_version: str
    uptime: float
    source: Source
    receiver_power_state: str
    receiver_power_since: float
    last_location: Location | None
    is_stationary: bool
    clients: int
    live_subscriptions: int
    pending_requests: int
    diagnostics: Diagnostics
    power_ledger: list[PowerLedgerEntry]
    transitions: int
    motion_detection: str
    event_loop: EventLoopCounts | None
    recent_transitions: list[PowerTransition]
    #: In all; empty from a daemon that does not count them.
    sessions: SessionCounts = SessionCounts()
    #: Per app holding or keeping any: every app for an operator, else the asking app alone.
    app_sessions: list[AppSessions] = dataclasses.field(default_factory=list)


def _camel(snake: str) -> str:
    head, *rest = snake.split("_")
    return head + "".join(word.capitalize() for word in rest)


_TIMESTAMP = re.compile(r"(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?Z", re.ASCII)


def _timestamp(fields: Fields, key: str) -> datetime.datetime:
    text = fields.string(key)
    match = _TIMESTAMP.fullmatch(text)
    try:
        if match is None:
            raise ValueError
        year, month, day, hour, minute, second = (int(group) for group in match.groups()[:6])
        microseconds = int((match.group(7) or "0").ljust(9, "0")[:6])
        return datetime.datetime(year, month, day, hour, minute, second, microseconds, tzinfo=datetime.timezone.utc)
    except ValueError:
        raise DaemonProtocolError(f"{fields.path}.{key}: expected ISO 8601 UTC such as 2024-06-01T12:00:00.000Z, found {text!r}") from None


def _named(fields: Fields, key: str, kind: type[enum.Enum], optional: bool = False) -> Any:
    text = fields.optional_string(key) if optional else fields.string(key)
    if text is None:
        return None
    try:
        return kind(text)
    except ValueError:
        raise DaemonProtocolError(f"{fields.path}.{key}: {text!r} is not a {kind.__name__}") from None


def _counts(fields: Fields) -> dict[str, int]:
    counts = {name: fields.optional_integer(name) for name in CONSTELLATIONS}
    return {name: count for name, count in counts.items() if count}


def decode_location(fields: Fields) -> Location:
    """A ``location`` object."""
    source = fields.fields("sourceInformation")
    dilution = fields.fields("dilution")
    satellites = fields.fields("satellites")
    return Location(
        latitude=fields.coordinate("latitude", 90),
        longitude=fields.coordinate("longitude", 180),
        altitude=fields.double("altitude"),
        ellipsoidal_altitude=fields.double("ellipsoidalAltitude"),
        horizontal_accuracy=fields.double("horizontalAccuracy"),
        vertical_accuracy=fields.double("verticalAccuracy"),
        speed=fields.double("speed"),
        speed_accuracy=fields.double("speedAccuracy"),
        course=fields.double("course"),
        course_accuracy=fields.double("courseAccuracy"),
        # Absent from older daemons' locations: they derived nothing.
        is_velocity_derived=fields.optional_boolean("isVelocityDerived") or False,
        timestamp=_timestamp(fields, "timestamp"),
        source_information=SourceInformation(
            is_simulated_by_software=source.boolean("isSimulatedBySoftware"),
            is_produced_by_accessory=source.boolean("isProducedByAccessory"),
        ),
        mode=_named(fields, "mode", FixMode),
        receiver_mode=_named(fields, "receiverMode", FixMode, optional=True),
        quality=_named(fields, "quality", FixQuality),
        dilution=DilutionOfPrecision(
            horizontal=dilution.optional_double("horizontal"),
            vertical=dilution.optional_double("vertical"),
            position=dilution.optional_double("position"),
        ),
        satellites=SatelliteCounts(in_view=_counts(satellites.fields("inView")), used=_counts(satellites.fields("used"))),
    )


def decode_update(fields: Fields) -> LocationUpdate:
    """An ``update`` object."""
    location = fields.optional_fields("location")
    return LocationUpdate(
        location=None if location is None else decode_location(location),
        is_stationary=fields.boolean("isStationary"),
        diagnostics=Diagnostics.from_names(fields.strings("diagnostics")),
    )


def _decode_session_counts(fields: Fields) -> SessionCounts:
    return SessionCounts(
        service_sessions=fields.integer("serviceSessions"),
        background_activity_sessions=fields.integer("backgroundActivitySessions"),
        kept_subscriptions=fields.integer("keptSubscriptions"),
        kept_requests=fields.integer("keptRequests"),
        kept_background_activity_sessions=fields.integer("keptBackgroundActivitySessions"),
    )


def decode_status(fields: Fields) -> StatusReport:
    """A ``status`` object."""
    sessions = fields.optional_fields("sessions")
    apps = [] if sessions is None else [sessions.element("apps", index, entry) for index, entry in enumerate(sessions.array("apps"))]
    source = fields.fields("source")
    power = fields.fields("receiverPower")
    ledger = [fields.element("powerLedger", index, entry) for index, entry in enumerate(fields.array("powerLedger"))]
    recent = [fields.element("recentTransitions", index, entry) for index, entry in enumerate(fields.optional_array("recentTransitions") or [])]
    last_location = fields.optional_fields("lastLocation")
    event_loop = fields.optional_fields("eventLoop")
    return StatusReport(
        daemon_version=fields.string("daemonVersion"),
        uptime=fields.double("uptime"),
        source=Source(kind=source.string("kind"), description=source.string("description"), is_simulated=source.boolean("isSimulated")),
        receiver_power_state=power.string("state"),
        receiver_power_since=power.double("since"),
        last_location=None if last_location is None else decode_location(last_location),
        is_stationary=fields.boolean("isStationary"),
        clients=fields.integer("clients"),
        live_subscriptions=fields.integer("liveSubscriptions"),
        pending_requests=fields.integer("pendingRequests"),
        diagnostics=Diagnostics.from_names(fields.strings("diagnostics")),
        power_ledger=[
            PowerLedgerEntry(state=entry.string("state"), seconds=entry.double("seconds"), milliwatt_hours=entry.double("milliwattHours"))
            for entry in ledger
        ],
        transitions=fields.integer("transitions"),
        motion_detection=fields.optional_string("motionDetection") or "accelerometer",
        event_loop=None if event_loop is None else EventLoopCounts(timers=event_loop.integer("timers"), descriptors=event_loop.integer("descriptors")),
        recent_transitions=[
            PowerTransition(time=entry.double("time"), from_state=entry.string("from"), to_state=entry.string("to"), reason=entry.string("reason"))
            for entry in recent
        ],
        sessions=SessionCounts() if sessions is None else _decode_session_counts(sessions),
        app_sessions=[AppSessions(app=entry.string("app"), counts=_decode_session_counts(entry)) for entry in apps],
    )


class MonitorState(str, enum.Enum):
    """A condition's state (``CLMonitor.Event.State``)."""

    UNKNOWN = "unknown"
    SATISFIED = "satisfied"
    UNSATISFIED = "unsatisfied"
    UNMONITORED = "unmonitored"


@dataclasses.dataclass(frozen=True)
class CircularGeographicCondition:
    """A circle on the ground (``CLMonitor.CircularGeographicCondition``): latitude −90 … 90,
    longitude −180 … 180, radius 1 m … 100 km."""

    latitude: float
    longitude: float
    radius: float

    def encode(self) -> dict[str, Any]:
        return {"type": "circularGeographic", "center": {"latitude": self.latitude, "longitude": self.longitude}, "radius": self.radius}


_UUID = re.compile(r"[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}")


@dataclasses.dataclass(frozen=True)
class BeaconIdentityCondition:
    """A Bluetooth beacon's identity (``CLMonitor.BeaconIdentityCondition``): its UUID, and
    optionally its major value and then its minor value (0 … 65535). Waymark has no Bluetooth
    ranging: the daemon keeps such a condition ``unmonitored``, its event saying
    ``conditionUnsupported``. In a record ``uuid`` is ``None``: the daemon keeps only the kind."""

    uuid: str | None
    major: int | None = None
    minor: int | None = None

    def __post_init__(self) -> None:
        if self.uuid is not None:
            if _UUID.fullmatch(self.uuid) is None:
                raise ValueError(f"not a UUID (8-4-4-4-12 hexadecimal digits): {self.uuid!r}")
            object.__setattr__(self, "uuid", self.uuid.upper())
        for value in (self.major, self.minor):
            if value is not None and not (isinstance(value, int) and 0 <= value <= 65535):
                raise ValueError(f"a beacon's major and minor values are 0 … 65535: {value!r}")
        if self.minor is not None and self.major is None:
            raise ValueError("a beacon's minor value comes with its major value")

    def encode(self) -> dict[str, Any]:
        encoded: dict[str, Any] = {"type": "beaconIdentity", "uuid": self.uuid}
        if self.major is not None:
            encoded["major"] = self.major
        if self.minor is not None:
            encoded["minor"] = self.minor
        return encoded


@dataclasses.dataclass(frozen=True)
class UnsupportedCondition:
    """A condition of a kind this library does not know (a newer daemon's), by its type."""

    type: str


@dataclasses.dataclass(frozen=True)
class MonitorEvent:
    """A change of a condition's state, or a diagnostic about it (``CLMonitor.Event``);
    ``diagnostics`` names ``accuracyLimited``, ``conditionLimitExceeded``,
    ``conditionUnsupported``, ``persistenceUnavailable``."""

    identifier: str
    state: MonitorState
    date: datetime.datetime
    diagnostics: list[str]


@dataclasses.dataclass(frozen=True)
class MonitorRecord:
    """A condition and its last event (``CLMonitor.Record``)."""

    condition: CircularGeographicCondition | BeaconIdentityCondition | UnsupportedCondition
    last_event: MonitorEvent


def decode_monitor_event(fields: Fields) -> MonitorEvent:
    """A ``monitorEvent`` event's members, or a record's ``lastEvent``."""
    return MonitorEvent(
        identifier=fields.string("identifier"),
        state=_named(fields, "state", MonitorState),
        date=_timestamp(fields, "date"),
        diagnostics=fields.strings("diagnostics"),
    )


def decode_monitor_record(fields: Fields) -> MonitorRecord:
    """A ``record`` object."""
    return MonitorRecord(condition=_decode_condition(fields.fields("condition")), last_event=decode_monitor_event(fields.fields("lastEvent")))


def _decode_condition(condition: Fields) -> CircularGeographicCondition | BeaconIdentityCondition | UnsupportedCondition:
    kind = condition.string("type")
    if kind == "circularGeographic":
        center = condition.fields("center")
        return CircularGeographicCondition(center.double("latitude"), center.double("longitude"), condition.double("radius"))
    if kind == "beaconIdentity":
        try:
            return BeaconIdentityCondition(condition.optional_string("uuid"), condition.optional_integer("major"), condition.optional_integer("minor"))
        except ValueError as error:
            raise DaemonProtocolError(f"{condition.path}: {error}") from None
    return UnsupportedCondition(kind)


@dataclasses.dataclass(frozen=True)
class Visit:
    """A stay at a place (``CLVisit``, WWDC15): its centre and accuracy, when the device
    arrived, and when it left (``None`` while it is there)."""

    latitude: float
    longitude: float
    horizontal_accuracy: float
    arrival_date: datetime.datetime
    departure_date: datetime.datetime | None


def decode_visit(fields: Fields) -> Visit:
    """A ``visit`` object (a ``visit`` event's, or one of the ``visits`` diary)."""
    return Visit(
        latitude=fields.double("latitude"),
        longitude=fields.double("longitude"),
        horizontal_accuracy=fields.double("horizontalAccuracy"),
        arrival_date=_timestamp(fields, "arrivalDate"),
        departure_date=None if fields.optional_string("departureDate") is None else _timestamp(fields, "departureDate"),
    )

"""Decoding the protocol's messages (the examples of docs/protocol.md) and finding the socket,
without a daemon."""

from __future__ import annotations

import datetime
import json
import re
import unittest

import waymark
from waymark.model import decode_monitor_record, decode_status, decode_update, decode_visit
from waymark.socket_path import SYSTEM, client_candidates, user_id
from waymark.wire import Fields, decode_line
from waymarkd import ROOT


def documented_lines(prefix: str) -> list[bytes]:
    """The lines of docs/protocol.md's JSON examples that start with ``prefix``."""
    text = (ROOT / "docs" / "protocol.md").read_text()
    blocks = re.findall(r"```json\n(.*?)```", text, re.DOTALL)
    return [line.encode() for block in blocks for line in block.splitlines() if line.startswith(prefix)]


class DocumentedMessages(unittest.TestCase):
    def test_a_visit_event_decodes_with_its_departure_null_while_there(self) -> None:
        line = b'{"event":"visit","visit":{"latitude":47.3769,"longitude":8.5417,"horizontalAccuracy":12.5,"arrivalDate":"2026-11-23T08:01:07.000Z","departureDate":null}}'
        arrival = decode_visit(Fields(decode_line(line), "message").fields("visit"))
        self.assertEqual((arrival.latitude, arrival.longitude, arrival.horizontal_accuracy), (47.3769, 8.5417, 12.5))
        self.assertEqual(arrival.arrival_date, datetime.datetime(2026, 11, 23, 8, 1, 7, tzinfo=datetime.timezone.utc))
        self.assertIsNone(arrival.departure_date)
        departure = decode_visit(Fields(decode_line(line.replace(b"null", b'"2026-11-23T08:08:00.400Z"')), "message").fields("visit"))
        self.assertEqual(departure.departure_date, datetime.datetime(2026, 11, 23, 8, 8, 0, 400_000, tzinfo=datetime.timezone.utc))
        with self.assertRaises(waymark.DaemonProtocolError):
            decode_visit(Fields(decode_line(line.replace(b"null", b'"yesterday"')), "message").fields("visit"))

    def test_the_documented_update_decodes_field_by_field(self) -> None:
        (line,) = [line for line in documented_lines('{"event":"update"') if b'"location":{' in line]
        update = decode_update(Fields(decode_line(line), "message").fields("update"))
        location = update.location
        self.assertEqual((location.latitude, location.longitude, location.altitude), (47.3769, 8.5417, 408.2))
        self.assertEqual(location.ellipsoidal_altitude, 455.6)
        self.assertEqual((location.horizontal_accuracy, location.vertical_accuracy), (4.8, 7.2))
        self.assertEqual((location.speed, location.speed_accuracy, location.course, location.course_accuracy), (1.4, 0.3, 92.5, 12.0))
        self.assertFalse(location.is_velocity_derived)
        self.assertEqual(location.timestamp, datetime.datetime(2024, 6, 1, 12, 34, 56, 125_000, tzinfo=datetime.timezone.utc))
        self.assertEqual(location.source_information, waymark.SourceInformation(True, True))
        self.assertEqual((location.mode, location.receiver_mode), (waymark.FixMode.THREE_DIMENSIONAL,) * 2)
        self.assertEqual(location.quality, waymark.FixQuality.AUTONOMOUS)
        self.assertEqual(location.dilution, waymark.DilutionOfPrecision(0.9, 1.4, 1.7))
        self.assertEqual(location.satellites, waymark.SatelliteCounts({"gps": 11, "galileo": 6}, {"gps": 8, "galileo": 5}))
        self.assertFalse(update.is_stationary)
        self.assertTrue(update.diagnostics.is_empty)

    def test_the_documented_unavailable_update(self) -> None:
        (line,) = [line for line in documented_lines('{"event":"update"') if b'"location":null' in line]
        update = decode_update(Fields(decode_line(line), "message").fields("update"))
        self.assertIsNone(update.location)
        self.assertEqual(update.diagnostics, waymark.Diagnostics(location_unavailable=True))

    def test_the_documented_status_decodes(self) -> None:
        (line,) = documented_lines('{"id":3,"op":"status","result"')
        status = decode_status(Fields(decode_line(line), "message").fields("result").fields("status"))
        self.assertEqual(status.source, waymark.Source("simulated", "simulated board, scenario walk", True))
        self.assertEqual((status.receiver_power_state, status.receiver_power_since), ("off", 3500.5))
        self.assertEqual(status.power_ledger[0], waymark.PowerLedgerEntry("tracking", 3500.5, 82.4))
        self.assertEqual((status.clients, status.live_subscriptions, status.transitions), (1, 1, 1))
        self.assertEqual(status.motion_detection, "accelerometer")
        self.assertIsNone(status.event_loop)
        self.assertEqual(status.recent_transitions, [])
        counts = waymark.SessionCounts(service_sessions=1, kept_requests=1)
        self.assertEqual(status.sessions, counts)
        self.assertEqual(status.app_sessions, [waymark.AppSessions("unit:tracker.service", counts)])

    def test_a_status_without_session_counts_decodes_with_none(self) -> None:
        (line,) = documented_lines('{"id":3,"op":"status","result"')
        message = json.loads(line)
        del message["result"]["status"]["sessions"]
        status = decode_status(Fields(message, "message").fields("result").fields("status"))
        self.assertEqual((status.sessions, status.app_sessions), (waymark.SessionCounts(), []))

    def test_the_client_speaks_the_protocol_version_of_the_daemon_and_its_documentation(self) -> None:
        swift = (ROOT / "Sources" / "WaymarkProtocol" / "ProtocolVersion.swift").read_text()
        (current,) = re.findall(r"static let current = (\d+)", swift)
        self.assertEqual(waymark.PROTOCOL_VERSION, int(current))
        documented = re.findall(r"This daemon speaks version (\d+)", (ROOT / "docs" / "protocol.md").read_text())
        self.assertEqual(documented, [current])

    def test_every_documented_error_code_is_an_error_code(self) -> None:
        text = (ROOT / "docs" / "protocol.md").read_text()
        documented = set(re.findall(r"^\| `(\w+)` \|", text.split("## Error codes")[1].split("##")[0], re.MULTILINE))
        self.assertEqual(documented, {code.value for code in waymark.ErrorCode})

    def test_diagnostic_names_round_trip_and_unknown_ones_are_ignored(self) -> None:
        names = ["authorizationDenied", "locationUnavailable", "accuracyLimited", "daemonUnavailable"]
        self.assertEqual(waymark.Diagnostics.from_names(names + ["fromTheFuture"]).names, names)

    def test_a_timestamp_that_is_no_date_is_refused(self) -> None:
        (line,) = [line for line in documented_lines('{"event":"update"') if b'"location":{' in line]
        for bad in ("2024-02-30T12:00:00Z", "2024-06-01T12:00:00.1234567890Z", "2024-06-01 12:00:00Z", "2024-06-01T24:00:00Z"):
            message = json.loads(line)
            message["update"]["location"]["timestamp"] = bad
            with self.subTest(timestamp=bad), self.assertRaises(waymark.DaemonProtocolError):
                decode_update(Fields(message, "message").fields("update"))

    def test_a_coordinate_no_place_has_is_refused(self) -> None:
        (line,) = [line for line in documented_lines('{"event":"update"') if b'"location":{' in line]
        for key, bad in (("latitude", 1e308), ("latitude", -90.5), ("longitude", 180.25)):
            message = json.loads(line)
            message["update"]["location"][key] = bad
            with self.subTest(key=key, value=bad), self.assertRaises(waymark.DaemonProtocolError):
                decode_update(Fields(message, "message").fields("update"))

    def test_a_record_of_every_condition_kind_decodes(self) -> None:
        last = {"identifier": "x", "state": "unmonitored", "date": "1970-01-01T00:00:00.000Z", "diagnostics": ["conditionUnsupported"]}
        cases = [
            ({"type": "circularGeographic", "center": {"latitude": 1, "longitude": 2}, "radius": 3}, waymark.CircularGeographicCondition(1, 2, 3)),
            ({"type": "beaconIdentity"}, waymark.BeaconIdentityCondition(None)),
            ({"type": "beaconIdentity", "uuid": "e2c56db5-dffb-48d2-b060-d0f5a71096e0", "major": 1}, waymark.BeaconIdentityCondition("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", 1)),
            ({"type": "polygon", "points": []}, waymark.UnsupportedCondition("polygon")),
        ]
        for condition, expected in cases:
            with self.subTest(condition=condition):
                self.assertEqual(decode_monitor_record(Fields({"condition": condition, "lastEvent": last}, "record")).condition, expected)
        for bad in ({"type": "beaconIdentity", "uuid": "not a uuid"}, {"type": "beaconIdentity", "uuid": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "minor": 1}):
            with self.subTest(condition=bad), self.assertRaises(waymark.DaemonProtocolError):
                decode_monitor_record(Fields({"condition": bad, "lastEvent": last}, "record"))


class SocketPaths(unittest.TestCase):
    def test_waymark_socket_alone_when_set(self) -> None:
        self.assertEqual(client_candidates({"WAYMARK_SOCKET": "/x/w.sock", "XDG_RUNTIME_DIR": "/run/user/1000"}, 1000), ["/x/w.sock"])

    def test_system_then_development_socket(self) -> None:
        self.assertEqual(client_candidates({"XDG_RUNTIME_DIR": "/run/user/1000"}, 1000), [SYSTEM, "/run/user/1000/waymark/waymark.sock"])
        self.assertEqual(client_candidates({"WAYMARK_SOCKET": "", "XDG_RUNTIME_DIR": "relative"}, 1000), [SYSTEM, "/tmp/waymark-1000/waymark.sock"])

    def test_the_service_user_from_passwd(self) -> None:
        passwd = b"root:x:0:0::/root:/bin/sh\nwaymarker:x:5:5::/:/bin/sh\nwaymark:x:998:998::/:/usr/sbin/nologin\n"
        self.assertEqual(user_id("waymark", passwd), 998)
        self.assertIsNone(user_id("gpsd", passwd))


if __name__ == "__main__":
    unittest.main()

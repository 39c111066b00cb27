import WaymarkClock
import WaymarkJSON
import WaymarkLocation
import WaymarkSimulation
import WaymarkReceiver

extension PowerRunReport {
    /// The report as JSON: setup, energy per state, baselines and their ratio, resume
    /// latencies, movement without fixes, false wakes, power cycles, and the event log.
    package var json: [UInt8] {
        var json = JSONBuffer(capacity: 1 << 16)
        json.beginObject()
        json.member("scenario", text: setup.scenario.name)
        json.member("receiver", text: setup.profile.name)
        json.member("configuration", text: setup.configuration.rawValue)
        json.member("accelerometer", setup.hasAccelerometer)
        json.member("durationHours", duration.seconds / 3_600, decimals: 3)
        json.key("energyByState")
        json.beginObject()
        for entry in energyByState {
            json.key(entry.state)
            json.beginObject()
            json.member("seconds", entry.seconds, decimals: 1)
            json.member("milliwattHours", entry.milliwattHours, decimals: 3)
            json.endObject()
        }
        json.endObject()
        json.member("energyMilliwattHours", energy, decimals: 3)
        json.member("alwaysOnMilliwattHours", alwaysOnEnergy, decimals: 3)
        json.member("oracleMilliwattHours", oracleEnergy, decimals: 3)
        json.member("ratioToOracle", energy / oracleEnergy, decimals: 3)
        json.member("ratioToAlwaysOn", energy / alwaysOnEnergy, decimals: 3)
        json.key("resumeLatencySeconds")
        json.beginObject()
        for (name, quantile) in [("p50", 0.5), ("p95", 0.95), ("max", 1.0)] as [(StaticString, Double)] {
            json.member(name, resumeLatency(quantile: quantile)?.seconds, decimals: 3)
        }
        json.key("all")
        json.beginArray()
        for latency in resumeLatencies { json.fixed(latency.seconds, decimals: 3) }
        json.endArray()
        json.endObject()
        json.member("metresWithoutFixes", metresWithoutFixes, decimals: 1)
        json.key("firstStart")
        if let firstStart {
            json.beginObject()
            json.member("seconds", firstStart.latency.seconds, decimals: 3)
            json.member("metres", firstStart.metres, decimals: 1)
            json.endObject()
        } else {
            json.null()
        }
        json.member("falseWakes", falseWakes)
        json.member("falseWakesPerDeskHour", falseWakesPerDeskHour, decimals: 3)
        json.member("powerCycles", powerCycles)
        json.member("motionStarts", motionStarts)
        json.member("updates", updates)
        json.member("accelerometerSampledFraction", accelerometerSampledFraction, decimals: 3)
        json.member("accelerometerReadsPerHour", accelerometerReadsPerHour, decimals: 0)
        json.key("log")
        json.beginArray()
        for entry in log {
            json.beginObject()
            json.member("second", entry.instant.seconds, decimals: 3)
            json.member("event", text: entry.event)
            json.endObject()
        }
        json.endArray()
        json.endObject()
        json.newline()
        return json.bytes
    }

    /// The timeline as CSV, one row a second: receiver state and current, true speed, whether
    /// the device truly moves, whether a location was delivered and whether satellite
    /// signals reach the device.
    package var csv: [UInt8] {
        var text = "second,state,current_mA,speed_mps,moving,fix,signal\n"
        for point in timeline {
            text += "\(point.second),\(point.state.rawValue),\(point.current),\(Self.twoDecimals(point.speed)),"
            text += "\(point.isMoving ? 1 : 0),\(point.hasFix ? 1 : 0),\(point.hasSignal ? 1 : 0)\n"
        }
        return Array(text.utf8)
    }

    /// A number with two decimals, for tables and labels.
    package static func twoDecimals(_ value: Double) -> String {
        JSONBuffer.decimalText(value, decimals: 2)
    }
}

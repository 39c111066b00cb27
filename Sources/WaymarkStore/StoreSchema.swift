/// The daemon's one database file and its schema: authorization (issue 13) in versions 1 and 2,
/// monitors, their queued events and the visit diary (issue 15) in version 3, the apps that
/// monitor visits in version 4, the visit events kept for an app that is away in version 5;
/// later versions
/// will add sessions. Append steps, never edit one that
/// has shipped.
package enum StoreSchema {
    /// Every step of the schema, in order.
    package static let migrations: [Migration] = [authorization, identitiesAndRequesters, monitorsAndVisits, visitMonitoring, keptVisits]

    /// Opens the database at `path` and brings its schema up to date.
    package static func open(path: String) throws(StoreError) -> Database {
        let database = try Database(path: path)
        try database.migrate(migrations)
        return database
    }

    /// Version 1: apps with their authorization, pending requests, global settings.
    /// Times are nanoseconds since the Unix epoch. STRICT tables refuse a value of another type.
    static let authorization = Migration(
        """
        CREATE TABLE apps (
            id INTEGER PRIMARY KEY,
            identityKind TEXT NOT NULL CHECK (identityKind IN ('unit', 'executable', 'uid')),
            identityKey TEXT NOT NULL,
            appID TEXT,
            authorization TEXT NOT NULL DEFAULT 'notDetermined' CHECK (authorization IN
                ('notDetermined', 'denied', 'restricted', 'authorizedWhenInUse', 'authorizedAlways')),
            accuracy TEXT NOT NULL DEFAULT 'full' CHECK (accuracy IN ('full', 'reduced')),
            updatedAt INTEGER NOT NULL,
            UNIQUE (identityKind, identityKey)
        ) STRICT;
        CREATE TABLE pendingRequests (
            app INTEGER PRIMARY KEY REFERENCES apps (id) ON DELETE CASCADE,
            usageDescription TEXT NOT NULL,
            requestedAuthorization TEXT NOT NULL
                CHECK (requestedAuthorization IN ('authorizedWhenInUse', 'authorizedAlways')),
            firstRequestedAt INTEGER NOT NULL
        ) STRICT;
        CREATE TABLE settings (
            key TEXT PRIMARY KEY,
            value ANY NOT NULL
        ) STRICT;
        """)

    /// Version 2: identities by bound appID and by user unit (docs/authorization.md), and the
    /// uid of each pending request (requests are capped per uid). SQLite cannot change a CHECK
    /// constraint, so both tables are rebuilt: new tables, rows copied, old ones dropped (the
    /// child first, so no cascade fires), the new ones renamed (which rewrites the foreign key).
    static let identitiesAndRequesters = Migration(
        """
        CREATE TABLE appsVersion2 (
            id INTEGER PRIMARY KEY,
            identityKind TEXT NOT NULL CHECK (identityKind IN ('appID', 'unit', 'userUnit', 'executable', 'uid')),
            identityKey TEXT NOT NULL,
            appID TEXT,
            authorization TEXT NOT NULL DEFAULT 'notDetermined' CHECK (authorization IN
                ('notDetermined', 'denied', 'restricted', 'authorizedWhenInUse', 'authorizedAlways')),
            accuracy TEXT NOT NULL DEFAULT 'full' CHECK (accuracy IN ('full', 'reduced')),
            updatedAt INTEGER NOT NULL,
            UNIQUE (identityKind, identityKey)
        ) STRICT;
        CREATE TABLE pendingRequestsVersion2 (
            app INTEGER PRIMARY KEY REFERENCES appsVersion2 (id) ON DELETE CASCADE,
            usageDescription TEXT NOT NULL,
            requestedAuthorization TEXT NOT NULL
                CHECK (requestedAuthorization IN ('authorizedWhenInUse', 'authorizedAlways')),
            uid INTEGER,
            firstRequestedAt INTEGER NOT NULL
        ) STRICT;
        INSERT INTO appsVersion2 (id, identityKind, identityKey, appID, authorization, accuracy, updatedAt)
            SELECT id, identityKind, identityKey, appID, authorization, accuracy, updatedAt FROM apps;
        INSERT INTO pendingRequestsVersion2 (app, usageDescription, requestedAuthorization, uid, firstRequestedAt)
            SELECT app, usageDescription, requestedAuthorization, NULL, firstRequestedAt FROM pendingRequests;
        DROP TABLE pendingRequests;
        DROP TABLE apps;
        ALTER TABLE appsVersion2 RENAME TO apps;
        ALTER TABLE pendingRequestsVersion2 RENAME TO pendingRequests;
        CREATE INDEX pendingRequestsByUID ON pendingRequests (uid);
        """)

    /// Version 3: each app's named monitors and their conditions with state and last event, the
    /// events not yet acknowledged by the app (with the count dropped when its queue was full),
    /// and the device's visit diary (docs/store.md, "Monitor schema"). Diagnostics are stored as
    /// their names joined by commas, in declaration order.
    static let monitorsAndVisits = Migration(
        """
        CREATE TABLE monitors (
            id INTEGER PRIMARY KEY,
            app INTEGER NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
            name TEXT NOT NULL,
            UNIQUE (app, name)
        ) STRICT;
        CREATE TABLE conditions (
            monitor INTEGER NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            identifier TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('circularGeographic', 'beaconIdentity')),
            latitude REAL,
            longitude REAL,
            radius REAL,
            assumedState TEXT CHECK (assumedState IN ('unknown', 'satisfied', 'unsatisfied')),
            state TEXT NOT NULL CHECK (state IN ('unknown', 'satisfied', 'unsatisfied', 'unmonitored')),
            stateDate INTEGER NOT NULL,
            diagnostics TEXT NOT NULL,
            PRIMARY KEY (monitor, identifier),
            CHECK ((kind = 'circularGeographic') = (latitude IS NOT NULL AND longitude IS NOT NULL AND radius IS NOT NULL))
        ) STRICT;
        CREATE TABLE pendingEvents (
            sequence INTEGER PRIMARY KEY AUTOINCREMENT,
            app INTEGER NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
            monitor TEXT NOT NULL,
            identifier TEXT NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('unknown', 'satisfied', 'unsatisfied', 'unmonitored')),
            date INTEGER NOT NULL,
            diagnostics TEXT NOT NULL
        ) STRICT;
        CREATE INDEX pendingEventsByApp ON pendingEvents (app, sequence);
        CREATE TABLE droppedEvents (
            app INTEGER PRIMARY KEY REFERENCES apps (id) ON DELETE CASCADE,
            count INTEGER NOT NULL CHECK (count > 0)
        ) STRICT;
        CREATE TABLE visits (
            arrivalDate INTEGER PRIMARY KEY,
            departureDate INTEGER,
            latitude REAL NOT NULL,
            longitude REAL NOT NULL,
            horizontalAccuracy REAL NOT NULL
        ) STRICT;
        """)

    /// Version 4: the apps that monitor visits (`startVisitMonitoring`), kept like their
    /// monitors so that the service survives a restart of the daemon.
    static let visitMonitoring = Migration(
        """
        CREATE TABLE visitMonitoring (
            app INTEGER PRIMARY KEY REFERENCES apps (id) ON DELETE CASCADE
        ) STRICT;
        """)

    /// Version 5: the arrivals and departures kept for an app that monitors visits and was not
    /// there to take them, until it acknowledges them (as `pendingEvents`, with their own
    /// sequence), and the count dropped when its queue was full.
    static let keptVisits = Migration(
        """
        CREATE TABLE pendingVisits (
            sequence INTEGER PRIMARY KEY AUTOINCREMENT,
            app INTEGER NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
            arrivalDate INTEGER NOT NULL,
            departureDate INTEGER,
            latitude REAL NOT NULL,
            longitude REAL NOT NULL,
            horizontalAccuracy REAL NOT NULL
        ) STRICT;
        CREATE INDEX pendingVisitsByApp ON pendingVisits (app, sequence);
        CREATE TABLE droppedVisits (
            app INTEGER PRIMARY KEY REFERENCES apps (id) ON DELETE CASCADE,
            count INTEGER NOT NULL CHECK (count > 0)
        ) STRICT;
        """)
}

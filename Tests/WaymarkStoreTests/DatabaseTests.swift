import CSQLite
import Foundation
import Testing
@testable import WaymarkStore

@Suite("the SQLite wrapper")
struct DatabaseTests {
    @Test func opensWithWriteAheadLoggingFullSynchronousAndForeignKeys() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let database = try Database(path: directory.database)
        #expect(try database.rows("PRAGMA journal_mode") { row throws(StoreError) in try row.string(0) } == ["wal"])
        #expect(try database.rows("PRAGMA synchronous") { row throws(StoreError) in try row.int64(0) } == [2])
        #expect(try database.rows("PRAGMA foreign_keys") { row throws(StoreError) in try row.bool(0) } == [true])
    }

    @Test func bindsAndReadsEveryTypeItKeeps() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let database = try Database(path: directory.database)
        try database.execute("CREATE TABLE t (i INTEGER, r REAL, s TEXT, b INTEGER, n TEXT) STRICT")
        let text = "Zürich \u{1F30D} with a \0 inside"
        try database.run(
            "INSERT INTO t VALUES (?, ?, ?, ?, ?)", [.integer(.min), .real(-0.125), .text(text), .bool(true), .null])
        let rows = try database.rows("SELECT i, r, s, b, n FROM t") { row throws(StoreError) in
            (try row.int64(0), try row.double(1), try row.string(2), try row.bool(3), try row.optionalString(4))
        }
        #expect(rows.count == 1)
        #expect(rows.first?.0 == .min)
        #expect(rows.first?.1 == -0.125)
        #expect(rows.first?.2 == text)
        #expect(rows.first?.3 == true)
        #expect(rows.first?.4 == nil)
    }

    @Test func refusesAValueOfAnotherTypeInsteadOfConvertingIt() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let database = try Database(path: directory.database)
        let row = "SELECT 'text', 2, 3, NULL"
        #expect(throws: StoreError.self) { try database.rows(row) { row throws(StoreError) in try row.int64(0) } }
        #expect(throws: StoreError.self) { try database.rows(row) { row throws(StoreError) in try row.bool(1) } }
        #expect(throws: StoreError.self) { try database.rows(row) { row throws(StoreError) in try row.string(2) } }
        #expect(throws: StoreError.self) { try database.rows(row) { row throws(StoreError) in try row.double(3) } }
        let error = #expect(throws: StoreError.self) {
            try database.rows("SELECT 'text'") { row throws(StoreError) in try row.int64(0) }
        }
        #expect(error?.kind == .unexpectedValue)
    }

    @Test func refusesAWrongNumberOfValuesAndASecondStatement() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let database = try Database(path: directory.database)
        try database.execute("CREATE TABLE t (i INTEGER)")
        let tooFew = #expect(throws: StoreError.self) { try database.run("INSERT INTO t VALUES (?)") }
        #expect(tooFew?.sqliteCode == SQLITE_RANGE)
        #expect(throws: StoreError.self) { try database.run("INSERT INTO t VALUES (1); DROP TABLE t") }
        #expect(try database.rows("SELECT count(*) FROM t") { row throws(StoreError) in try row.int64(0) } == [0])
    }

    @Test func commitsATransactionAndRollsBackOneThatThrows() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let database = try Database(path: directory.database)
        try database.execute("CREATE TABLE t (i INTEGER PRIMARY KEY)")
        try database.transaction { () throws(StoreError) in try database.run("INSERT INTO t VALUES (1)") }
        #expect(throws: StoreError.self) {
            try database.transaction { () throws(StoreError) in
                try database.run("INSERT INTO t VALUES (2)")
                try database.run("INSERT INTO t VALUES (1)")  // violates the primary key
            }
        }
        #expect(try database.rows("SELECT i FROM t") { row throws(StoreError) in try row.int64(0) } == [1])
        // The failed transaction is closed: the next one starts.
        try database.transaction { () throws(StoreError) in try database.run("INSERT INTO t VALUES (3)") }
        #expect(try database.rows("SELECT i FROM t ORDER BY i") { row throws(StoreError) in try row.int64(0) } == [1, 3])
    }

    @Test func reportsAFileThatIsNotADatabase() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: directory.database))
        let error = #expect(throws: StoreError.self) { try Database(path: directory.database) }
        #expect(error?.kind == .sqlite)
        #expect(error?.sqliteCode == SQLITE_NOTADB)
    }

    @Test func reportsADamagedDatabaseWithoutTrapping() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        do {
            let database = try Database(path: directory.database)
            try database.execute("CREATE TABLE t (s TEXT); CREATE INDEX ts ON t (s)")
            try database.transaction { () throws(StoreError) in
                for index in 0..<2000 { try database.run("INSERT INTO t VALUES (?)", [.text("row \(index)")]) }
            }
            try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
        // Overwrite every page after the first (the header and schema stay readable).
        var bytes = try Data(contentsOf: URL(fileURLWithPath: directory.database))
        for offset in stride(from: 4096, to: bytes.count, by: 7) { bytes[offset] = 0xA5 }
        try bytes.write(to: URL(fileURLWithPath: directory.database))
        var problems: [String] = []
        do {
            problems = try Database(path: directory.database).integrityProblems()
        } catch {
            problems = ["\(error)"]
        }
        #expect(!problems.isEmpty)
    }

    @Test(arguments: [0o770, 0o777, 0o1777])
    func refusesADirectoryOthersCanWriteTo(mode: Int) throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: directory.path)
        let error = #expect(throws: StoreError.self) { try Database(path: directory.database) }
        #expect(error?.kind == .unsafeFile)
        #expect(!FileManager.default.fileExists(atPath: directory.database))
    }

    @Test(arguments: ["", "-wal", "-shm"])
    func refusesAFileOthersCanWriteTo(suffix: String) throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        _ = try Database(path: directory.database)
        let file = directory.database + suffix
        if !FileManager.default.fileExists(atPath: file) { #expect(FileManager.default.createFile(atPath: file, contents: nil)) }
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: file)
        let error = #expect(throws: StoreError.self) { try Database(path: directory.database) }
        #expect(error?.kind == .unsafeFile)
    }

    @Test(.enabled(if: geteuid() == 0, "only root can give a file to another user"))
    func refusesAFileOwnedByAnotherUser() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        _ = try Database(path: directory.database)
        #expect(chown(directory.database, 65534, 65534) == 0)
        let error = #expect(throws: StoreError.self) { try Database(path: directory.database) }
        #expect(error?.kind == .unsafeFile)
        #expect(error?.message.contains("uid 65534") == true)
    }

    @Test(.enabled(if: geteuid() == 0, "only root can give a directory to another user"))
    func refusesADirectoryOwnedByAnotherUser() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        #expect(chown(directory.path, 65534, 65534) == 0)
        let error = #expect(throws: StoreError.self) { try Database(path: directory.database) }
        #expect(error?.kind == .unsafeFile)
        #expect(error?.message.contains("\(directory.path) belongs to uid 65534") == true)
    }

    @Test func refusesASymbolicLink() throws {
        let directory = try StoreDirectory()
        defer { directory.remove() }
        let target = directory.path + "/elsewhere.db"
        _ = try Database(path: target)
        try FileManager.default.createSymbolicLink(atPath: directory.database, withDestinationPath: target)
        let error = #expect(throws: StoreError.self) { try Database(path: directory.database) }
        #expect(error?.kind == .unsafeFile)
    }

    @Test(arguments: [("store.db", "."), ("/store.db", "/"), ("/var/lib/waymark/store.db", "/var/lib/waymark")])
    func findsTheDirectoryOfAPath(path: String, directory: String) {
        #expect(FileSafety.directory(of: path) == directory)
    }
}

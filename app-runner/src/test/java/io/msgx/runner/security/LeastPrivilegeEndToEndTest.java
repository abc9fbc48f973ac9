package io.msgx.runner.security;

import ch.qos.logback.classic.Level;
import io.msgx.adapter.kafka.KafkaTestBroker;
import io.msgx.domain.message.FlopSubtype;
import io.msgx.pipeline.inbox.CompatEntry;
import io.msgx.pipeline.record.RequestStatus;
import io.msgx.pipeline.testing.SisMessages;
import io.msgx.runner.config.Keys;
import io.msgx.runner.embed.MsgExchange;
import io.msgx.runner.embed.PipelineStatus;
import io.msgx.testing.Slow;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

import static io.msgx.adapter.mysql.TestMailboxDatabase.insertInbound;
import static io.msgx.pipeline.testing.SisMessages.fltr;
import static io.msgx.pipeline.testing.SisMessages.patch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The runner on the least-privileged database users of docs/operations.md ("Database users and grants"): the
 * owner role migrates, then mailbox (MariaDB) → pipeline → PostgreSQL → Kafka runs on the runtime role and the
 * mailbox user, requests are written to {@code COUTMSGS} and found again, and the compatibility entry works once
 * its one extra grant is given. The same users are then shown unable to do anything else: the grants are not
 * only enough, they are the minimum the tests can exercise.
 */
@Slow
class LeastPrivilegeEndToEndTest {

    /** MariaDB's refusals: no right on the database, on the table, on the column. */
    private static final int ER_DBACCESS_DENIED = 1044;
    private static final int ER_TABLEACCESS_DENIED = 1142;
    private static final int ER_COLUMNACCESS_DENIED = 1143;

    private final SisMessages sis = new SisMessages();
    private LeastPrivilegeUsers users;
    private final List<MsgExchange> exchanges = new ArrayList<>();

    @BeforeEach
    void createUsers() throws SQLException {
        users = LeastPrivilegeUsers.create();
    }

    @AfterEach
    void dropUsers() {
        try {
            exchanges.forEach(MsgExchange::close);
        } finally {
            users.close();
        }
    }

    @Test
    void the_pipeline_runs_end_to_end_on_the_documented_grants() throws Exception {
        migrateAsOwner();
        var topics = io.msgx.runner.RealServices.freshTopics("lp");
        var schdTopic = topics.get(Keys.KAFKA_TOPIC_SCHD);
        var keys = new LinkedHashMap<>(users.runtimeKeys());
        keys.remove(Keys.KAFKA_ENABLED);
        keys.put(Keys.KAFKA_BOOTSTRAP, KafkaTestBroker.bootstrapServers());
        keys.putAll(topics);
        keys.put(Keys.POLL_INTERVAL, "100ms");
        keys.put(Keys.JOBS_STANDBY_POLL, "100ms");
        keys.put(Keys.DISPATCH_INTERVAL, "100ms");
        // Every job runs at activation, then every second: the housekeeping jobs (archive, retention, history and
        // event clean-up, with their DELETEs) and the backfill are checked on these rights too.
        keys.put(Keys.JOBS_HOUSEKEEPING, "1s");
        keys.put(Keys.JOBS_BACKFILL, "1s");

        long last;
        try (var aodb = users.aodb()) {
            insertInbound(aodb, sis.schedule(fltr("1001", "11MAR240835", "FLNO", "CA1405", "STND", "504"),
                    fltr("1002", "11MAR240900", "FLNO", "MU5101")));
            insertInbound(aodb, sis.flop(FlopSubtype.STND, "1001", patch("STND", "612")));
            insertInbound(aodb, sis.other("LDM", "ANY"));
            last = insertInbound(aodb, sis.flop(FlopSubtype.EOBT, "1002", patch("EOBT", "11MAR240850")));
        }

        try (var warnings = LogCapture.start(Level.WARN)) {
            var exchange = open(keys);
            exchange.start();
            var drained = waitFor("the mailbox processed, marked and delivered", exchange,
                    s -> s.watermark() == last && s.backlog() == 0 && s.owedBackfills() == 0 && s.pendingEvents() == 0);
            assertThat(drained.failed() + drained.dead() + drained.deadEvents() + drained.abandonedBackfills()).isZero();

            assertThat(countInStore("SELECT count(*) FROM flight_schd")).isEqualTo(2);
            assertThat(countInStore("SELECT count(*) FROM flight_schd WHERE flid = '1001' AND stnd = '612'")).isEqualTo(1);
            assertThat(countInMailbox("SELECT count(*) FROM CMINMSGS WHERE CMINMSGS_DATE_PROCESSED IS NULL"))
                    .as("every inbound row carries its processing mark").isZero();
            assertThat(KafkaTestBroker.readAll(schdTopic)).extracting(KafkaTestBroker.ReadRecord::key)
                    .contains("1001", "1002");

            // A request: INSERT into COUTMSGS, then found again by its SEQN (the crash-recovery path's SELECT).
            var request = exchange.requestSender().requestReference("GATE");
            assertThat(request.status()).isEqualTo(RequestStatus.SENT);
            assertThat(exchange.mailbox().findOutbound("<SEQN>" + request.seqn() + "</SEQN>", request.createdAt()))
                    .hasValue(request.outMsgId());

            assertThat(warnings.lines()).as("no statement of the runner was refused a privilege")
                    .noneMatch(LeastPrivilegeEndToEndTest::deniedPrivilege);
        }

        // Without its grant the compatibility entry cannot write (and says so); with it, it can.
        var exchange = exchanges.get(0);
        var message = sis.schedule(fltr("2001", "11MAR241000", "FLNO", "HU7181"));
        assertThat(exchange.compatEntry().submit(message)).isInstanceOf(CompatEntry.Outcome.Unavailable.class);
        assertThat(countInMailbox("SELECT count(*) FROM CMINMSGS WHERE CMINMSGS_ID > " + last)).isZero();
        users.grantCompatibilityEntry();
        var accepted = exchange.compatEntry().submit(message);
        assertThat(accepted).isInstanceOf(CompatEntry.Outcome.Accepted.class);
        long viaEntry = ((CompatEntry.Outcome.Accepted) accepted).msgId();
        waitFor("the compatibility entry's message processed", exchange,
                s -> s.watermark() == viaEntry && s.backlog() == 0 && s.owedBackfills() == 0);
        assertThat(countInStore("SELECT count(*) FROM flight_schd WHERE flid = '2001'")).isEqualTo(1);
    }

    @Test
    void the_runtime_role_cannot_migrate_nor_change_the_schema_or_its_history() throws Exception {
        assertThatThrownBy(() -> open(users.runtimeKeys()).migrate()).as("migrate needs the owner role")
                .hasStackTraceContaining("permission denied");
        migrateAsOwner();

        try (var store = users.asRuntimeRole(); var st = store.createStatement()) {
            for (var ddl : List.of("CREATE TABLE sneaky (id int)", "DROP TABLE proc_state", "ALTER TABLE proc_state ADD COLUMN x int",
                    "TRUNCATE msg_event", "CREATE INDEX sneaky_ix ON proc_state (msg_id)",
                    "UPDATE flyway_schema_history SET checksum = 0", "DELETE FROM flyway_schema_history",
                    "CREATE SCHEMA sneaky")) {
                assertThatThrownBy(() -> st.execute(ddl)).as(ddl).isInstanceOfSatisfying(SQLException.class,
                        e -> assertThat(e.getSQLState()).as("insufficient_privilege: " + e.getMessage()).isEqualTo("42501"));
            }
            assertThat(st.executeQuery("SELECT count(*) FROM flyway_schema_history").next())
                    .as("the runtime role reads the history: run checks the schema is current").isTrue();
        }
        // The runtime role is what run uses: it starts on the migrated schema.
        var exchange = open(users.runtimeKeys());
        exchange.start();
        var deadline = Instant.now().plus(Duration.ofSeconds(30));
        while (!exchange.isActive() && Instant.now().isBefore(deadline)) {
            Thread.sleep(100);
        }
        assertThat(exchange.isActive()).as("run starts on the runtime role").isTrue();
        assertThat(exchange.status().backlog()).isZero();
    }

    @Test
    void the_mailbox_user_cannot_delete_rewrite_or_add_mailbox_rows() throws Exception {
        long id;
        try (var aodb = users.aodb()) {
            id = insertInbound(aodb, sis.schedule(fltr("1001", "11MAR240835")));
            try (var st = aodb.createStatement()) {
                st.executeUpdate("INSERT INTO COUTMSGS (COUTMSGS_CLOB_MSG, COUTMSGS_DATE_INSERTED, ROUTINGID)"
                        + " VALUES ('<MSG/>', NOW(3), 'AODB')");
            }
        }
        try (var runner = users.asMailboxUser(); var st = runner.createStatement()) {
            // What it may do: read, set the mark, write a request.
            assertThat(st.executeUpdate("UPDATE CMINMSGS SET CMINMSGS_DATE_PROCESSED = NOW(3) WHERE CMINMSGS_ID = " + id))
                    .isEqualTo(1);
            for (var refused : List.of(
                    "DELETE FROM CMINMSGS WHERE CMINMSGS_ID = " + id,
                    "UPDATE CMINMSGS SET CMINMSGS_CLOB_MSG = '<MSG/>' WHERE CMINMSGS_ID = " + id,
                    "UPDATE CMINMSGS SET CMINMSGS_STATUS = 'INVALID' WHERE CMINMSGS_ID = " + id,
                    "UPDATE CMINMSGS SET CMINMSGS_DATE_RECEIVED = NOW(3) WHERE CMINMSGS_ID = " + id,
                    "INSERT INTO CMINMSGS (CMINMSGS_CLOB_MSG, CMINMSGS_DATE_RECEIVED) VALUES ('<MSG/>', NOW(3))",
                    "UPDATE COUTMSGS SET COUTMSGS_DATE_SENT = NOW(3)",
                    "DELETE FROM COUTMSGS",
                    "SELECT ROUTINGID, COUTMSGS_DATE_SENT FROM COUTMSGS",
                    "TRUNCATE TABLE CMINMSGS",
                    "DROP TABLE COUTMSGS",
                    "ALTER TABLE CMINMSGS ADD COLUMN x INT",
                    "CREATE TABLE sneaky (id INT)")) {
                assertThatThrownBy(() -> st.execute(refused)).as(refused).isInstanceOfSatisfying(SQLException.class,
                        e -> assertThat(e.getErrorCode()).as("a privilege refusal: " + e.getMessage())
                                .isIn(ER_DBACCESS_DENIED, ER_TABLEACCESS_DENIED, ER_COLUMNACCESS_DENIED));
            }
        }
        try (var aodb = users.aodb(); var st = aodb.createStatement();
             var rows = st.executeQuery("SELECT count(*), min(CMINMSGS_STATUS) FROM CMINMSGS")) {
            rows.next();
            assertThat(rows.getLong(1)).as("the inbound row is still there, unchanged").isEqualTo(1);
            assertThat(rows.getString(2)).isEqualTo("VALID");
        }
    }

    // ------------------------------------------------------------------------------------------------ helpers

    private void migrateAsOwner() throws SQLException {
        try (var owner = MsgExchange.builder().config(users.ownerKeys()).build()) {
            assertThat(owner.migrate()).as("migrations run by the owner role").isPositive();
        }
        users.afterFirstMigration();
    }

    private MsgExchange open(java.util.Map<String, String> keys) {
        var exchange = MsgExchange.builder().config(keys).build();
        exchanges.add(exchange);
        return exchange;
    }

    private static boolean deniedPrivilege(String line) {
        var lower = line.toLowerCase(Locale.ROOT);
        return lower.contains("denied") || lower.contains("permission") || lower.contains("privilege");
    }

    private long countInStore(String sql) throws SQLException {
        try (var admin = users.postgresAdmin(); var st = admin.createStatement(); var rows = st.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    private long countInMailbox(String sql) throws SQLException {
        try (var aodb = users.aodb(); var st = aodb.createStatement(); var rows = st.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    private static PipelineStatus waitFor(String what, MsgExchange exchange, Predicate<PipelineStatus> done)
            throws InterruptedException {
        var deadline = Instant.now().plus(Duration.ofSeconds(60));
        PipelineStatus status = null;
        while (Instant.now().isBefore(deadline)) {
            status = exchange.status();
            if (done.test(status)) {
                return status;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("timed out waiting for " + what + "; last status " + status);
    }
}

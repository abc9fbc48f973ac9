package io.msgx.adapter.mysql;

import io.msgx.pipeline.mailbox.MailboxRowUnreadableException;
import io.msgx.pipeline.mailbox.MailboxUnavailableException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A failure tied to one row is told from an outage (seeds §5.2 step 1, issue 24 point 1, D-85). On MariaDB the inbound
 * "table" is a view whose text column goes through a function that fails for one ID, as a conversion or charset error
 * on one row would: reading that row is {@link MailboxRowUnreadableException} while the mailbox answers; the other rows
 * read as always; an unreachable server is still {@link MailboxUnavailableException}.
 */
class JdbcMailboxUnreadableRowTest {

    private TestMailboxDatabase db;
    private JdbcMailbox mailbox;
    private long readable;
    private long broken;

    @BeforeEach
    void createAViewWithOneUnreadableRow() throws SQLException {
        db = TestMailboxDatabase.create();
        var defaults = MailboxSchema.defaults();
        try (var connection = db.connect(); var sql = connection.createStatement()) {
            new MailboxDdl(defaults).createTables(connection);
            readable = TestMailboxDatabase.insertInbound(connection, "<MSG>fine</MSG>");
            broken = TestMailboxDatabase.insertInbound(connection, "<MSG>broken</MSG>");
            var in = defaults.inbound();
            sql.execute("CREATE FUNCTION text_of(id BIGINT, txt LONGTEXT) RETURNS LONGTEXT DETERMINISTIC BEGIN"
                    + " IF id = " + broken + " THEN SIGNAL SQLSTATE '22007' SET MESSAGE_TEXT = 'Incorrect string value';"
                    + " END IF; RETURN txt; END");
            sql.execute("CREATE VIEW INBOX_READ AS SELECT " + in.idColumn() + ", text_of(" + in.idColumn() + ", "
                    + in.clobColumn() + ") AS " + in.clobColumn() + ", " + in.receivedColumn() + ", "
                    + in.processedColumn() + ", " + in.statusColumn() + " FROM " + in.table());
        }
        var in = defaults.inbound();
        var view = new MailboxSchema(new MailboxSchema.Inbound("INBOX_READ", in.idColumn(), in.clobColumn(),
                in.receivedColumn(), in.processedColumn(), in.subsystemNameColumn(), in.subsystemTypeColumn(),
                in.subsystemSubtypeColumn(), in.subsystemSequenceColumn(), in.statusColumn()), defaults.outbound());
        mailbox = new JdbcMailbox(db.dataSource(), view, JdbcMailbox.DEFAULT_ZONE, 5);
    }

    @AfterEach
    void drop() {
        db.close();
    }

    @Test
    void the_unreadable_row_is_its_own_problem_and_the_others_read_as_always() {
        assertThat(mailbox.readText(readable)).contains("<MSG>fine</MSG>");

        assertThatThrownBy(() -> mailbox.readText(broken)).isInstanceOf(MailboxRowUnreadableException.class)
                .hasMessageContaining("row " + broken).hasMessageContaining("while the mailbox answers")
                .hasMessageContaining("Incorrect string value");
        assertThatThrownBy(() -> mailbox.readTexts(List.of(readable, broken)))
                .isInstanceOf(MailboxRowUnreadableException.class);
    }

    @Test
    void a_mailbox_that_does_not_answer_is_still_an_outage() {
        var down = new com.mysql.cj.jdbc.MysqlDataSource();
        down.setURL("jdbc:mysql://127.0.0.1:1/nowhere?connectTimeout=500");
        var unreachable = new JdbcMailbox(down, MailboxSchema.defaults(), JdbcMailbox.DEFAULT_ZONE, 5);

        assertThatThrownBy(() -> unreachable.readText(broken)).isInstanceOf(MailboxUnavailableException.class)
                .isNotInstanceOf(MailboxRowUnreadableException.class);
    }
}

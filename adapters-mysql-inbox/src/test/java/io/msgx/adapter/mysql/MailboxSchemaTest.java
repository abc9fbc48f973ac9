package io.msgx.adapter.mysql;

import com.mysql.cj.jdbc.MysqlDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.ZoneId;
import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The names are configuration and are refused, naming the setting, when they are not plain identifiers. */
class MailboxSchemaTest {

    private static MailboxSchema.Inbound inboundWithProcessedColumn(String name) {
        MailboxSchema.Inbound d = MailboxSchema.Inbound.defaults();
        return new MailboxSchema.Inbound(d.table(), d.idColumn(), d.clobColumn(), d.receivedColumn(), name,
                d.subsystemNameColumn(), d.subsystemTypeColumn(), d.subsystemSubtypeColumn(),
                d.subsystemSequenceColumn(), d.statusColumn());
    }

    @Test
    void defaultsAreTheNamesOfSisFormat() {
        MailboxSchema schema = MailboxSchema.defaults();

        assertThat(schema.inbound()).isEqualTo(new MailboxSchema.Inbound("CMINMSGS", "CMINMSGS_ID",
                "CMINMSGS_CLOB_MSG", "CMINMSGS_DATE_RECEIVED", "CMINMSGS_DATE_PROCESSED", "CMINMSGS_SUBSYSTEM_NAME",
                "CMINMSGS_SUBSYSTEM_TYPE", "CMINMSGS_SUBSYSTEM_SUBTYPE", "CMINMSGS_SUBSYSTEM_SEQUENCE",
                "CMINMSGS_STATUS"));
        assertThat(schema.outbound()).isEqualTo(new MailboxSchema.Outbound("COUTMSGS", "COUTMSGS_ID",
                "COUTMSGS_CLOB_MSG", "COUTMSGS_DATE_INSERTED", "COUTMSGS_DATE_SENT", "ROUTINGID"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"DATE_PROCESSED; DROP TABLE x", "1ST", "a-b", "a b", "`x`", "x'", "名字", "a.b"})
    void aNameThatIsNotAPlainIdentifierIsRefusedNamingTheSetting(String bad) {
        assertThatThrownBy(() -> inboundWithProcessedColumn(bad))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("inbound.processedColumn")
                .hasMessageContaining(bad);
    }

    @Test
    void emptyNullAndOverlongNamesAreRefusedNamingTheSetting() {
        assertThatThrownBy(() -> inboundWithProcessedColumn("")).hasMessageContaining("inbound.processedColumn");
        assertThatThrownBy(() -> inboundWithProcessedColumn(null)).hasMessageContaining("inbound.processedColumn");
        assertThatThrownBy(() -> inboundWithProcessedColumn("X".repeat(65)))
                .hasMessageContaining("inbound.processedColumn");
        assertThatThrownBy(() -> new MailboxSchema.Outbound("COUTMSGS", "COUTMSGS_ID", "COUTMSGS_CLOB_MSG",
                "COUTMSGS_DATE_INSERTED", "COUTMSGS_DATE_SENT", "ROUTING ID"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("outbound.routingIdColumn");
    }

    @Test
    void plainIdentifiersWithUnderscoreDigitsAndDollarAreAccepted() {
        assertThat(inboundWithProcessedColumn("_done$2").processedColumn()).isEqualTo("_done$2");
        assertThat(inboundWithProcessedColumn("X".repeat(64)).processedColumn()).hasSize(64);
    }

    @Test
    void theAdapterRefusesAQueryTimeoutBelowOneSecond() {
        DataSource ds = new MysqlDataSource();

        assertThatThrownBy(() -> new JdbcMailbox(ds, MailboxSchema.defaults(), ZoneId.of("Asia/Shanghai"), 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("query timeout");
    }
}

package io.msgx.adapter.mysql;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The statements are exactly those of sis-format §1: the mark is never a read predicate, the read skips the text. */
class MailboxSqlTest {

    private final MailboxSql sql = MailboxSql.of(MailboxSchema.defaults());

    @Test
    void readAfterSelectsIdAndReceivedTimeByIdOnly() {
        assertThat(sql.readAfter()).isEqualTo("SELECT `CMINMSGS_ID`, `CMINMSGS_DATE_RECEIVED` FROM `CMINMSGS`"
                + " WHERE `CMINMSGS_ID` > ? ORDER BY `CMINMSGS_ID` LIMIT ?");
        assertThat(sql.readAfter()).doesNotContain("PROCESSED").doesNotContain("CLOB");
    }

    @Test
    void aRowIsReadWithItsStatusAndWithoutNamingTheColumnWhenTheCheckIsOff() {
        assertThat(sql.readContent()).isEqualTo("SELECT `CMINMSGS_CLOB_MSG`, `CMINMSGS_STATUS` FROM `CMINMSGS`"
                + " WHERE `CMINMSGS_ID` = ?");
        assertThat(sql.readContents(2)).isEqualTo("SELECT `CMINMSGS_ID`, `CMINMSGS_CLOB_MSG`, `CMINMSGS_STATUS`"
                + " FROM `CMINMSGS` WHERE `CMINMSGS_ID` IN (?, ?)");
        var off = MailboxSql.of(MailboxSchema.defaults(), false);
        assertThat(off.readContent()).isEqualTo("SELECT `CMINMSGS_CLOB_MSG`, NULL FROM `CMINMSGS` WHERE `CMINMSGS_ID` = ?");
        assertThat(off.readContents(1)).doesNotContain("STATUS");
    }

    @Test
    void theMarkIsAConditionalUpdate() {
        assertThat(sql.markProcessed()).isEqualTo("UPDATE `CMINMSGS` SET `CMINMSGS_DATE_PROCESSED` = ?"
                + " WHERE `CMINMSGS_ID` = ? AND `CMINMSGS_DATE_PROCESSED` IS NULL");
        assertThat(sql.inboundRowExists()).isEqualTo("SELECT 1 FROM `CMINMSGS` WHERE `CMINMSGS_ID` = ?");
    }

    @Test
    void theOutboundInsertLeavesTheSentTimeNull() {
        assertThat(sql.appendOutbound()).isEqualTo("INSERT INTO `COUTMSGS` (`COUTMSGS_CLOB_MSG`,"
                + " `COUTMSGS_DATE_INSERTED`, `COUTMSGS_DATE_SENT`, `ROUTINGID`) VALUES (?, ?, NULL, ?)");
    }
}

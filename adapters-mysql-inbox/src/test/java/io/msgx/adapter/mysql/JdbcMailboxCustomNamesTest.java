package io.msgx.adapter.mysql;

/**
 * The whole {@link JdbcMailboxTest} (the shared contract included) again, on tables and columns whose names share
 * nothing with sis-format's defaults: proves that every name the adapter uses comes from {@link MailboxSchema}.
 */
class JdbcMailboxCustomNamesTest extends JdbcMailboxTest {

    @Override
    protected MailboxSchema schema() {
        return new MailboxSchema(
                new MailboxSchema.Inbound("aodb_inbox", "msg_no", "payload", "recv_at", "done_at",
                        "sub_name", "sub_type", "sub_subtype", "sub_seq", "state$"),
                new MailboxSchema.Outbound("aodb_outbox", "out_no", "out_payload", "queued_at", "sent_at", "route"));
    }
}

/**
 * The shared AODB mailbox on MySQL / MariaDB (sis-format §1), in plain JDBC: {@link io.msgx.adapter.mysql.JdbcMailbox}
 * reads {@code CMINMSGS} by ID, writes the processing mark once, and appends to {@code COUTMSGS}.
 *
 * <p>The AODB side owns these tables. Their names come from {@link io.msgx.adapter.mysql.MailboxSchema}; production
 * code never creates or alters them ({@link io.msgx.adapter.mysql.MailboxDdl} exists for tests and the demo).
 */
package io.msgx.adapter.mysql;

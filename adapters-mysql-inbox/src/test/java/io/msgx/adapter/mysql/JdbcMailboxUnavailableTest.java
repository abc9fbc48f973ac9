package io.msgx.adapter.mysql;

import com.mysql.cj.jdbc.MysqlDataSource;
import io.msgx.pipeline.mailbox.MailboxUnavailableException;
import io.msgx.pipeline.mailbox.OutboundMessage;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.Instant;
import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A mailbox that cannot be reached answers every call with {@link MailboxUnavailableException}, never with "no
 * rows" or "no such row", and within bounded time.
 */
class JdbcMailboxUnavailableTest {

    private static DataSource pointingAt(int port, String extraOptions) {
        MysqlDataSource ds = new MysqlDataSource();
        ds.setURL("jdbc:mysql://127.0.0.1:" + port + "/test?sslMode=DISABLED&allowPublicKeyRetrieval=true"
                + "&connectTimeout=1000" + extraOptions);
        ds.setUser("root");
        ds.setPassword("");
        return ds;
    }

    private static int closedPort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        }
    }

    @Test
    void aClosedPortMakesEveryCallUnavailable() throws IOException {
        JdbcMailbox mailbox = new JdbcMailbox(pointingAt(closedPort(), ""), MailboxSchema.defaults(),
                JdbcMailbox.DEFAULT_ZONE, 2);

        assertThatThrownBy(() -> mailbox.readAfter(41, 100))
                .isInstanceOf(MailboxUnavailableException.class)
                .hasMessageContaining("readAfter(watermark=41, limit=100)")
                .hasMessageContaining("CMINMSGS")
                .hasMessageContaining("reachable");
        assertThatThrownBy(() -> mailbox.readText(42))
                .isInstanceOf(MailboxUnavailableException.class)
                .hasMessageContaining("readContent(id=42)")
                .hasMessageContaining("CMINMSGS");
        assertThatThrownBy(() -> mailbox.markProcessed(43, Instant.EPOCH))
                .isInstanceOf(MailboxUnavailableException.class)
                .hasMessageContaining("markProcessed(id=43)")
                .hasMessageContaining("CMINMSGS");
        assertThatThrownBy(() -> mailbox.appendOutbound(new OutboundMessage("<MSG/>", "RMS", Instant.EPOCH)))
                .isInstanceOf(MailboxUnavailableException.class)
                .hasMessageContaining("appendOutbound")
                .hasMessageContaining("COUTMSGS");
        assertThatThrownBy(mailbox::minId).isInstanceOf(MailboxUnavailableException.class);
        assertThatThrownBy(mailbox::maxId).isInstanceOf(MailboxUnavailableException.class);
    }

    @Test
    void aServerThatNeverAnswersIsUnavailableWithinTheSocketTimeout() throws IOException {
        // Accepts TCP connections (the kernel completes the handshake) but never sends MySQL's greeting.
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            JdbcMailbox mailbox = new JdbcMailbox(pointingAt(silent.getLocalPort(), "&socketTimeout=1000"),
                    MailboxSchema.defaults(), JdbcMailbox.DEFAULT_ZONE, 2);
            long started = System.nanoTime();

            assertThatThrownBy(() -> mailbox.readAfter(0, 10))
                    .isInstanceOf(MailboxUnavailableException.class)
                    .hasMessageContaining("readAfter(watermark=0, limit=10)");
            assertThatThrownBy(() -> mailbox.markProcessed(1, Instant.EPOCH))
                    .isInstanceOf(MailboxUnavailableException.class);

            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(15));
        }
    }
}

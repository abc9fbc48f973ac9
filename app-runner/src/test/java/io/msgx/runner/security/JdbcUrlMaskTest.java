package io.msgx.runner.security;

import io.msgx.runner.config.ConfigSource;
import io.msgx.runner.config.JdbcUrlMask;
import io.msgx.runner.config.RunnerConfig;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Every place a driver accepts a password inside a JDBC URL is masked; a URL without one is shown as given. */
class JdbcUrlMaskTest {

    @Test
    void passwords_written_into_a_jdbc_url_are_masked_wherever_the_driver_takes_them() {
        assertThat(JdbcUrlMask.mask("jdbc:postgresql://db:5432/msgx?user=msgx&password=s3cr3t&ssl=true"))
                .isEqualTo("jdbc:postgresql://db:5432/msgx?user=msgx&password=***&ssl=true");
        assertThat(JdbcUrlMask.mask("jdbc:postgresql://db/msgx?sslpassword=k3y&PASSWORD=s3cr3t"))
                .isEqualTo("jdbc:postgresql://db/msgx?sslpassword=***&PASSWORD=***");
        assertThat(JdbcUrlMask.mask("jdbc:mysql://msgx:s3cr3t@aodb:3306/sis?trustCertificateKeyStorePassword=k3y"))
                .isEqualTo("jdbc:mysql://msgx:***@aodb:3306/sis?trustCertificateKeyStorePassword=***");
        assertThat(JdbcUrlMask.mask("jdbc:mysql://(host=aodb,user=msgx,password=s3cr3t)/sis"))
                .isEqualTo("jdbc:mysql://(host=aodb,user=msgx,password=***)/sis");
        assertThat(JdbcUrlMask.mask("jdbc:postgresql://db/msgx?password=a,b)c;d&ssl=true"))
                .as("a password with punctuation is masked whole").isEqualTo("jdbc:postgresql://db/msgx?password=***&ssl=true");
        assertThat(JdbcUrlMask.mask("jdbc:mysql://msgx:pa/ss?;w@aodb/sis")).isEqualTo("jdbc:mysql://msgx:***@aodb/sis");
        assertThat(JdbcUrlMask.mask("jdbc:oracle:thin:msgx/s3cr3t@//db:1521/ORCL"))
                .isEqualTo("jdbc:oracle:thin:msgx/***@//db:1521/ORCL");
        assertThat(JdbcUrlMask.mask("jdbc:sqlserver://db;user=msgx;password=s3cr3t;encrypt=true"))
                .isEqualTo("jdbc:sqlserver://db;user=msgx;password=***;encrypt=true");
    }

    @Test
    void a_url_without_a_password_is_shown_as_given() {
        for (var url : new String[] {"jdbc:postgresql://127.0.0.1:5432/test",
                "jdbc:mysql://127.0.0.1:3306/sis?sslMode=DISABLED&allowPublicKeyRetrieval=true",
                "jdbc:oracle:thin:@//db:1521/ORCL", "jdbc:h2:mem:msgx;MODE=Oracle"}) {
            assertThat(JdbcUrlMask.mask(url)).isEqualTo(url);
        }
        assertThat(JdbcUrlMask.mask(null)).isNull();
    }

    @Test
    void the_settings_and_their_parts_never_print_a_secret() {
        var config = RunnerConfig.from(ConfigSource.of(Map.of(
                "msgx.store.url", "jdbc:postgresql://db/msgx?password=UrlSecret1",
                "msgx.store.password", "StoreSecret2",
                "msgx.mailbox.url", "jdbc:mysql://msgx:UrlSecret3@aodb/sis",
                "msgx.mailbox.password", "MailboxSecret4",
                "msgx.http.token", "TokenSecret5",
                "msgx.kafka.bootstrap-servers", "kafka:9092",
                "msgx.kafka.producer.sasl.jaas.config", "x required password=\"KafkaSecret6\";")));

        for (var shown : new String[] {config.toString(), config.describe().toString(), config.store().toString(),
                config.mailbox().toString(), config.http().toString(), config.kafka().toString()}) {
            assertThat(shown).doesNotContain("UrlSecret1", "StoreSecret2", "UrlSecret3", "MailboxSecret4",
                    "TokenSecret5", "KafkaSecret6");
        }
        assertThat(config.store().password()).as("masked when shown, kept for use").isEqualTo("StoreSecret2");
    }

    @Test
    void an_oracle_logon_written_into_the_url_is_taken_out_for_a_logon_given_apart() {
        assertThat(JdbcUrlMask.withoutOracleLogon("jdbc:oracle:thin:msgx/Secret7@//db:1521/ORCL"))
                .isEqualTo("jdbc:oracle:thin:@//db:1521/ORCL");
        assertThat(JdbcUrlMask.withoutOracleLogon("jdbc:oracle:thin:msgx/Secret7@db:1521:XE"))
                .isEqualTo("jdbc:oracle:thin:@db:1521:XE");
        for (var url : new String[] {"jdbc:oracle:thin:@//db:1521/ORCL", "jdbc:h2:file:/tmp/store;MODE=Oracle"}) {
            assertThat(JdbcUrlMask.withoutOracleLogon(url)).isEqualTo(url);
        }
    }
}

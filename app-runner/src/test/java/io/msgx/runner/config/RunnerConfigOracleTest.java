package io.msgx.runner.config;

import io.msgx.runner.config.RunnerConfig.StoreKind;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code msgx.store.kind=oracle}: its URL, its schema default, and the refusals that name the key. */
class RunnerConfigOracleTest {

    private static RunnerConfig config(String... keysAndValues) {
        var keys = new HashMap<String, String>();
        keys.put(Keys.MAILBOX_URL, "jdbc:mysql://aodb:3306/sis");
        keys.put(Keys.KAFKA_ENABLED, "false");
        for (int i = 0; i < keysAndValues.length; i += 2) {
            keys.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return RunnerConfig.from(ConfigSource.of(keys));
    }

    @Test
    void an_oracle_store_takes_a_jdbc_oracle_url_and_the_users_own_schema_by_default() {
        var config = config(Keys.STORE_KIND, "oracle", Keys.STORE_URL, "jdbc:oracle:thin:@//db:1521/ORCL",
                Keys.STORE_USER, "msgx_app");

        assertThat(config.store().kind()).isEqualTo(StoreKind.ORACLE);
        assertThat(config.store().schema()).as("Oracle: the user's schema, upper case as Oracle folds it")
                .isEqualTo("MSGX_APP");
        assertThat(config.describe()).containsEntry(Keys.STORE_KIND, "oracle");
    }

    @Test
    void an_oracle_store_may_live_in_another_users_schema() {
        var config = config(Keys.STORE_KIND, "ORACLE", Keys.STORE_URL, "jdbc:oracle:thin:@db:1521:XE",
                Keys.STORE_USER, "msgx_app", Keys.STORE_SCHEMA, "msgx");

        assertThat(config.store().schema()).isEqualTo("msgx");
    }

    @Test
    void h2_is_accepted_for_the_tests_stand_in() {
        var config = config(Keys.STORE_KIND, "oracle", Keys.STORE_URL, "jdbc:h2:mem:x;MODE=Oracle", Keys.STORE_USER, "sa");

        assertThat(config.store().kind()).isEqualTo(StoreKind.ORACLE);
    }

    @Test
    void an_oracle_store_refuses_a_url_of_another_database_naming_the_key_without_echoing_it() {
        assertThatThrownBy(() -> config(Keys.STORE_KIND, "oracle",
                Keys.STORE_URL, "jdbc:postgresql://db:5432/msgx?password=hunter2"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("msgx.store.url (from given) starts with 'jdbc:postgresql:'")
                .hasMessageContaining("msgx.store.kind is oracle, so expected an Oracle JDBC URL starting with jdbc:oracle:")
                .hasMessageContaining("jdbc:h2: is accepted for the H2 stand-in of the tests only")
                .hasMessageNotContaining("hunter2");
    }

    @Test
    void a_pg_store_given_an_oracle_url_says_to_set_the_kind() {
        assertThatThrownBy(() -> config(Keys.STORE_URL, "jdbc:oracle:thin:scott/tiger@//db:1521/ORCL"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("msgx.store.kind is pg, so expected a PostgreSQL JDBC URL starting with jdbc:postgresql:")
                .hasMessageContaining("for an Oracle store set msgx.store.kind=oracle")
                .hasMessageNotContaining("tiger");
    }

    @Test
    void an_unknown_kind_lists_both() {
        assertThatThrownBy(() -> config(Keys.STORE_KIND, "db2", Keys.STORE_URL, "jdbc:db2://db/msgx"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("msgx.store.kind = 'db2' (from given): expected one of [pg, oracle]");
    }

    @Test
    void an_oracle_schema_must_be_a_plain_identifier() {
        assertThatThrownBy(() -> config(Keys.STORE_KIND, "oracle", Keys.STORE_URL, "jdbc:oracle:thin:@//db/ORCL",
                Keys.STORE_SCHEMA, "msgx; DROP TABLE X"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("msgx.store.schema = 'msgx; DROP TABLE X' (from given): expected an Oracle schema name");
        assertThatThrownBy(() -> config(Keys.STORE_KIND, "oracle", Keys.STORE_URL, "jdbc:oracle:thin:@//db/ORCL",
                Keys.STORE_USER, "msgx-app"))
                .hasMessageContaining("msgx.store.schema = 'MSGX-APP' (not set: the store user's own schema)");
    }

    @Test
    void the_default_kind_is_still_pg() {
        assertThat(config(Keys.STORE_URL, "jdbc:postgresql://db/msgx").store())
                .satisfies(store -> assertThat(Map.of("kind", store.kind(), "schema", store.schema()))
                        .isEqualTo(Map.of("kind", StoreKind.PG, "schema", "msgx")));
    }
}

package io.msgx.adapter.oracle;

import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The statements that make the self-test's scratch user (D-88). H2 cannot run them (it knows no
 * {@code CREATE USER ... IDENTIFIED BY}), so their text is what is checked here: an 11g name, the store owner's grants
 * and no more, a password that needs no escaping, and no name or tablespace that could smuggle SQL in.
 */
class OracleScratchSchemaTest {

    @Test
    void theScratchUserIsNamedByItsUtcStartAndFitsAnOracle11gName() {
        var name = OracleScratchSchema.userName(Instant.parse("2026-12-02T10:15:30.999Z"));

        assertThat(name).isEqualTo("MSGX_ST_20261202101530");
        assertThat(name.length()).isLessThanOrEqualTo(30);
    }

    @Test
    void theUserGetsTheStoreOwnersGrantsInTheGivenTablespace() {
        assertThat(OracleScratchSchema.creation("MSGX_ST_20261202101530", "Pabc23", "USERS")).containsExactly(
                "CREATE USER MSGX_ST_20261202101530 IDENTIFIED BY \"Pabc23\" DEFAULT TABLESPACE USERS"
                        + " QUOTA UNLIMITED ON USERS",
                "GRANT CREATE SESSION, CREATE TABLE, CREATE SEQUENCE TO MSGX_ST_20261202101530");
    }

    @Test
    void randomPasswordsAreLongDistinctAndHoldOnlyLettersAndDigits() {
        var first = OracleScratchSchema.randomPassword();
        var second = OracleScratchSchema.randomPassword();

        assertThat(first).hasSize(24).matches("[A-Za-z][A-Za-z0-9]{23}").isNotEqualTo(second);
        assertThat(OracleScratchSchema.creation("MSGX_ST_1", first, "USERS")).isNotEmpty();
    }

    @Test
    void aTablespaceOrPasswordThatIsNotAPlainNameIsRefused() {
        assertThatThrownBy(() -> OracleScratchSchema.creation("MSGX_ST_1", "Pabc", "USERS; DROP USER MSGX"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tablespace 'USERS; DROP USER MSGX'");
        assertThatThrownBy(() -> OracleScratchSchema.creation("MSGX_ST_1", "P\" ACCOUNT UNLOCK", "USERS"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("letters and digits");
        assertThatThrownBy(() -> OracleScratchSchema.creation("A".repeat(31), "Pabc", "USERS"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most 30 characters");
    }
}

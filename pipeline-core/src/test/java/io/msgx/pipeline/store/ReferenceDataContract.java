package io.msgx.pipeline.store;

import io.msgx.pipeline.codec.ReferenceRecord;
import io.msgx.pipeline.port.ReferenceData;
import io.msgx.pipeline.record.ReferenceEntry;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What every store's {@link ReferenceData} must do: a refresh upserts every record of an answer, keeping its field
 * order; a later answer changes only the records it carries; an older message never overwrites a newer one; reads
 * by key and by type; a rolled-back refresh leaves nothing. A store's test class extends this and supplies a
 * fresh, empty store per test.
 */
public abstract class ReferenceDataContract extends StoreContract {

    /** A record whose fields are given as name, value, name, value, ...; the first value is the key. */
    static ReferenceRecord record(String... namesAndValues) {
        var fields = new LinkedHashMap<String, String>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            fields.put(namesAndValues[i], namesAndValues[i + 1]);
        }
        return new ReferenceRecord(namesAndValues[1], fields);
    }

    private void refreshInTransaction(String type, List<ReferenceRecord> records, long msgId) {
        store().inTransaction(tx -> {
            tx.referenceData().refresh(type, records, msgId, clock.instant());
            return null;
        });
    }

    @Test
    void aRefreshInsertsEveryRecordWithItsMessageAndTime() {
        var at = clock.instant();
        refreshInTransaction("GATE", List.of(record("GTCD", "G28", "DESC", "Gate 28"),
                record("GTCD", "G01", "DESC", "Gate 1")), 17);

        var g28 = store().referenceData().find("GATE", "G28").orElseThrow();
        assertThat(g28).isEqualTo(new ReferenceEntry("GATE", "G28", g28.document(), 17, at));
        assertThat(g28.document().texts()).containsExactly(entry("GTCD", "G28"), entry("DESC", "Gate 28"));
        assertThat(store().referenceData().find("GATE", "G01")).isPresent();
    }

    @Test
    void fieldOrderIsKeptAsTheAnswerGaveIt() {
        refreshInTransaction("AIRL", List.of(record("ALCD", "CA", "ZNAM", "Air China", "ANAM", "", "CNTY", "CN",
                "BNAM", "中国国际航空")), 3);

        assertThat(store().referenceData().find("AIRL", "CA").orElseThrow().document().texts().keySet())
                .containsExactly("ALCD", "ZNAM", "ANAM", "CNTY", "BNAM");
        assertThat(store().referenceData().find("AIRL", "CA").orElseThrow().document().texts())
                .containsEntry("ANAM", "").containsEntry("BNAM", "中国国际航空");
    }

    @Test
    void aLaterAnswerUpdatesOnlyTheRecordsItCarries() {
        refreshInTransaction("GATE", List.of(record("GTCD", "G01", "DESC", "old 1", "TRML", "T1"),
                record("GTCD", "G02", "DESC", "old 2")), 10);
        var first = clock.instant();
        clock.tick(Duration.ofHours(1));

        refreshInTransaction("GATE", List.of(record("GTCD", "G01", "DESC", "new 1")), 11);

        var g01 = store().referenceData().find("GATE", "G01").orElseThrow();
        assertThat(g01.document().texts()).as("written whole: TRML is gone").containsExactly(entry("GTCD", "G01"),
                entry("DESC", "new 1"));
        assertThat(g01.msgId()).isEqualTo(11);
        assertThat(g01.updatedAt()).isEqualTo(clock.instant());
        var g02 = store().referenceData().find("GATE", "G02").orElseThrow();
        assertThat(g02.document().texts()).containsEntry("DESC", "old 2");
        assertThat(g02.msgId()).isEqualTo(10);
        assertThat(g02.updatedAt()).isEqualTo(first);
    }

    @Test
    void anOlderMessageDoesNotOverwriteANewerOne() {
        refreshInTransaction("GATE", List.of(record("GTCD", "G01", "DESC", "newer")), 20);

        refreshInTransaction("GATE", List.of(record("GTCD", "G01", "DESC", "replayed older"),
                record("GTCD", "G09", "DESC", "new to us")), 19);

        assertThat(store().referenceData().find("GATE", "G01").orElseThrow().document().texts()).containsEntry("DESC", "newer");
        assertThat(store().referenceData().find("GATE", "G09")).isPresent();
    }

    @Test
    void aKeyGivenTwiceInOneAnswerKeepsItsLastRecord() {
        refreshInTransaction("GATE", List.of(record("GTCD", "G01", "DESC", "first"),
                record("GTCD", "G01", "DESC", "second")), 5);

        assertThat(store().referenceData().find("GATE", "G01").orElseThrow().document().texts()).containsEntry("DESC", "second");
        assertThat(store().referenceData().all("GATE", 10)).hasSize(1);
    }

    @Test
    void findMatchesTypeAndKeyExactly() {
        refreshInTransaction("GATE", List.of(record("GTCD", "G01", "DESC", "gate")), 1);
        refreshInTransaction("STND", List.of(record("STCD", "G01", "DESC", "stand")), 2);

        assertThat(store().referenceData().find("STND", "G01").orElseThrow().document().texts()).containsEntry("DESC", "stand");
        assertThat(store().referenceData().find("GATE", "g01")).isEmpty();
        assertThat(store().referenceData().find("BELT", "G01")).isEmpty();
    }

    @Test
    void allListsOneTypeByKeyUpToTheLimit() {
        refreshInTransaction("GATE", List.of(record("GTCD", "G03"), record("GTCD", "G01"), record("GTCD", "G02"),
                record("GTCD", "A10"), record("GTCD", "g00")), 1);
        refreshInTransaction("STND", List.of(record("STCD", "504")), 2);

        assertThat(store().referenceData().all("GATE", 10)).extracting(ReferenceEntry::key)
                .containsExactly("A10", "G01", "G02", "G03", "g00");
        assertThat(store().referenceData().all("GATE", 2)).extracting(ReferenceEntry::key)
                .containsExactly("A10", "G01");
        assertThat(store().referenceData().all("BELT", 10)).isEmpty();
        assertThatThrownBy(() -> store().referenceData().all("GATE", 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 1");
    }

    @Test
    void aRolledBackRefreshLeavesNothing() {
        refreshInTransaction("GATE", List.of(record("GTCD", "G01", "DESC", "kept")), 1);

        assertThatThrownBy(() -> store().inTransaction(tx -> {
            tx.referenceData().refresh("GATE", List.of(record("GTCD", "G01", "DESC", "lost"),
                    record("GTCD", "G02", "DESC", "lost")), 2, clock.instant());
            throw new IllegalStateException("boom");
        })).hasMessage("boom");

        assertThat(store().referenceData().find("GATE", "G01").orElseThrow().document().texts()).containsEntry("DESC", "kept");
        assertThat(store().referenceData().find("GATE", "G02")).isEmpty();
    }

    @Test
    void aKeyLongerThanTheColumnIsRefusedWithNothingWritten() {
        var tooLong = "K".repeat(ReferenceData.MAX_KEY_LENGTH + 1);

        assertThatThrownBy(() -> refreshInTransaction("GATE", List.of(record("GTCD", "G01"),
                record("GTCD", tooLong)), 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("longer than 64");
        assertThat(store().referenceData().all("GATE", 10)).isEmpty();
    }

    @Test
    void anEmptyAnswerChangesNothing() {
        refreshInTransaction("GATE", List.of(record("GTCD", "G01")), 1);

        refreshInTransaction("GATE", List.of(), 2);

        assertThat(store().referenceData().all("GATE", 10)).hasSize(1);
    }

    private static ReferenceRecord document(String key, String json) {
        return new ReferenceRecord(key, new io.msgx.pipeline.codec.ReferenceDocument(json));
    }

    @Test
    void aRecordIsStoredWholeWithAttributesRepeatsChildrenAndChineseText() {
        var json = "{\"ABCD\":\"AB01\",\"CDSC\":\"一号廊桥\",\"STND\":[\"201\",\"202\"],"
                + "\"TRML\":{\"@MVIN\":\"A\",\"@FLIN\":\"I\",\"#text\":\"T2\"},"
                + "\"SUBC\":{\"CODE\":\"3U\",\"NAME\":\"\",\"NAMC\":\"川航\"},\"GATE\":\"\"}";
        refreshInTransaction("ABDG", List.of(document("AB01", json)), 4);

        var stored = store().referenceData().find("ABDG", "AB01").orElseThrow();
        assertThat(stored.document().json()).isEqualTo(json);
        assertThat(stored.document().names()).containsExactly("ABCD", "CDSC", "STND", "TRML", "SUBC", "GATE");
        assertThat(store().referenceData().all("ABDG", 10).get(0).document().json()).isEqualTo(json);
    }

    @Test
    void removeDeletesByKeyExceptARecordWrittenByALaterMessage() {
        refreshInTransaction("GLST", List.of(record("GCOD", "G1"), record("GCOD", "G2"), record("GCOD", "G3")), 10);
        refreshInTransaction("GLST", List.of(record("GCOD", "G3", "GTNM", "newer")), 30);
        refreshInTransaction("SLST", List.of(record("SCOD", "G1")), 10);

        store().inTransaction(tx -> {
            tx.referenceData().remove("GLST", List.of("G1", "G3", "unknown"), 20);
            return null;
        });

        assertThat(store().referenceData().all("GLST", 10)).extracting(ReferenceEntry::key).containsExactly("G2", "G3");
        assertThat(store().referenceData().find("SLST", "G1")).as("another type's key").isPresent();
        store().inTransaction(tx -> {
            tx.referenceData().remove("GLST", List.of(), 40);
            return null;
        });
        assertThat(store().referenceData().all("GLST", 10)).hasSize(2);
    }

    @Test
    void writersNameTheLastMessageOfEveryKeyOfOneType() {
        refreshInTransaction("GLST", List.of(record("GCOD", "G1"), record("GCOD", "G2")), 10);
        refreshInTransaction("GLST", List.of(record("GCOD", "G2")), 11);
        refreshInTransaction("SLST", List.of(record("SCOD", "S1")), 12);

        java.util.Map<String, Long> writers = store().inTransaction(tx -> tx.referenceData().writers("GLST"));
        assertThat(writers).containsOnly(entry("G1", 10L), entry("G2", 11L));
        assertThat(store().referenceData().writers("BLST")).isEmpty();
        assertThat(store().referenceData().countsByType()).containsExactly(entry("GLST", 2L), entry("SLST", 1L));
    }

    private static <V> java.util.Map.Entry<String, V> entry(String name, V value) {
        return java.util.Map.entry(name, value);
    }
}

package io.msgx.tools.crash;

import io.msgx.adapter.kafka.KafkaTestBroker;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A topic read to its end, per key in the order the broker stored the records (one key lives in one partition).
 *
 * @param perKey every value of each key in offset order; a tombstone is null
 */
public record TopicContents(Map<String, List<String>> perKey) {

    public static TopicContents of(List<KafkaTestBroker.ReadRecord> records) {
        var perKey = new TreeMap<String, List<String>>();
        for (var record : records) {
            perKey.computeIfAbsent(record.key(), k -> new ArrayList<>()).add(record.value());
        }
        return new TopicContents(perKey);
    }

    /**
     * What a compacted topic comes to: the last value of every key, keys whose last record is a tombstone left out
     * (exactly what log compaction keeps for a new consumer, whether or not the cleaner has run yet).
     */
    public Map<String, String> compacted() {
        var latest = new HashMap<String, String>();
        perKey.forEach((key, values) -> {
            var last = values.get(values.size() - 1);
            if (last != null) {
                latest.put(key, last);
            }
        });
        return latest;
    }

    public int records() {
        return perKey.values().stream().mapToInt(List::size).sum();
    }
}

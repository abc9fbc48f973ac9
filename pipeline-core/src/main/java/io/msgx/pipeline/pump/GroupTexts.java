package io.msgx.pipeline.pump;

import io.msgx.pipeline.codec.DecodeResult;
import io.msgx.pipeline.codec.XmlCodec;
import io.msgx.pipeline.mailbox.MailboxContent;
import io.msgx.pipeline.port.Mailbox;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Predicate;
import java.util.stream.LongStream;

/**
 * The mailbox texts of a group, read in one query and decoded; and, while a group is being applied, the texts of the
 * group after it, read and decoded on another thread (decision D-51), so that the next group finds them ready.
 *
 * <p>A text read ahead is used only for a message it was read for: an ID the read-ahead did not find is read again
 * when its group comes (its row may have been committed since), and a read-ahead that failed is forgotten, so the
 * group reads its texts itself and meets the outage, if it lasts, as it would have without one. A mailbox row's text
 * is written once by the AODB side and never changed, so a text read a group earlier is the text the row holds.
 *
 * <p>A text is read with its row's mailbox status; a row whose status makes it no message (D-110) is not decoded.
 *
 * <p>Used by the pump's thread only; the read-ahead runs on the given executor. Without one ({@link #readingNow})
 * every group reads its own texts.
 */
final class GroupTexts {

    private static final Logger log = LoggerFactory.getLogger(GroupTexts.class);

    /**
     * One row's text as the mailbox holds it, its mailbox status (null for {@code NULL}), and what decoding it gave:
     * null when the status makes the row no message, whose text is not decoded.
     */
    record Text(String raw, String status, DecodeResult decoded) {
        Text {
            Objects.requireNonNull(raw, "raw");
        }
    }

    private final Mailbox mailbox;
    private final XmlCodec codec;
    private final Predicate<String> decodes;
    private final Executor executor;
    private CompletableFuture<Map<Long, Text>> ahead;

    private GroupTexts(Mailbox mailbox, XmlCodec codec, Predicate<String> decodes, Executor executor) {
        this.mailbox = Objects.requireNonNull(mailbox, "mailbox");
        this.codec = Objects.requireNonNull(codec, "codec");
        this.decodes = Objects.requireNonNull(decodes, "decodes");
        this.executor = executor;
    }

    /** Texts read when their group asks for them, nothing ahead; every text decoded, whatever its status. */
    static GroupTexts readingNow(Mailbox mailbox, XmlCodec codec) {
        return readingNow(mailbox, codec, status -> true);
    }

    /** Texts read when their group asks for them, nothing ahead; decoded when {@code decodes} accepts their status. */
    static GroupTexts readingNow(Mailbox mailbox, XmlCodec codec, Predicate<String> decodes) {
        return new GroupTexts(mailbox, codec, decodes, null);
    }

    /** Texts read when their group asks, and ahead on {@code executor}; every text decoded, whatever its status. */
    static GroupTexts readingAhead(Mailbox mailbox, XmlCodec codec, Executor executor) {
        return readingAhead(mailbox, codec, status -> true, executor);
    }

    /**
     * Texts read when their group asks, and ahead on {@code executor} when {@link #readAhead} is called; decoded when
     * {@code decodes} accepts their status.
     */
    static GroupTexts readingAhead(Mailbox mailbox, XmlCodec codec, Predicate<String> decodes, Executor executor) {
        return new GroupTexts(mailbox, codec, decodes, Objects.requireNonNull(executor, "executor"));
    }

    /**
     * The texts of {@code ids}, decoded; an ID without a mailbox row is absent. Taken from the read-ahead where it
     * read them, read now (one query) where it did not. Throws
     * {@link io.msgx.pipeline.mailbox.MailboxUnavailableException} when the mailbox cannot be read now.
     */
    Map<Long, Text> read(List<Long> ids) {
        var texts = new HashMap<Long, Text>();
        var readAhead = takeReadAhead();
        var missing = new ArrayList<Long>();
        for (var id : ids) {
            var text = readAhead.get(id);
            if (text == null) {
                missing.add(id);
            } else {
                texts.put(id, text);
            }
        }
        if (!missing.isEmpty()) {
            texts.putAll(decoded(mailbox.readContents(missing)));
        }
        if (!readAhead.isEmpty() && log.isDebugEnabled()) {
            log.debug("Texts of {} message(s) from {}: {} read ahead, {} read now", ids.size(), ids.get(0),
                    ids.size() - missing.size(), missing.size());
        }
        return texts;
    }

    /**
     * Begin reading and decoding the texts of the {@code count} IDs after {@code lastId} on the executor, for the
     * next {@link #read}; replaces a read-ahead nobody took. Does nothing without an executor.
     */
    void readAhead(long lastId, int count) {
        if (executor == null) {
            return;
        }
        var ids = LongStream.rangeClosed(lastId + 1, lastId + count).boxed().toList();
        if (ahead != null) {
            ahead.cancel(false);
        }
        try {
            ahead = CompletableFuture.supplyAsync(() -> decoded(mailbox.readContents(ids)), executor);
        } catch (RejectedExecutionException e) {
            ahead = null; // the pipeline is stopping: the next group, if any, reads its own texts
        }
    }

    /** What the read-ahead found, if it has finished and succeeded; nothing otherwise. Either way it is used up. */
    private Map<Long, Text> takeReadAhead() {
        var taken = ahead;
        ahead = null;
        if (taken == null) {
            return Map.of();
        }
        if (!taken.isDone()) {
            // Still running (the group it overlapped with was quick): the group reads its own texts rather than wait.
            taken.cancel(false);
            return Map.of();
        }
        try {
            return taken.join();
        } catch (RuntimeException e) {
            log.debug("The read-ahead of the next group's texts failed ({}); the group reads them now", e.toString());
            return Map.of();
        }
    }

    private Map<Long, Text> decoded(Map<Long, MailboxContent> contents) {
        var texts = new HashMap<Long, Text>();
        contents.forEach((id, content) -> texts.put(id, new Text(content.text(), content.status(),
                decodes.test(content.status()) ? codec.decode(content.text()) : null)));
        return texts;
    }
}

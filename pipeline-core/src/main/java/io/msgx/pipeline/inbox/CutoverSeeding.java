package io.msgx.pipeline.inbox;

import io.msgx.pipeline.port.InboxCursors;
import io.msgx.pipeline.port.Mailbox;

import java.time.Clock;
import java.util.Locale;

/**
 * The cut-over decision ({@code msgx.pipeline.cutover-watermark}): where a brand-new instance starts reading a
 * mailbox that already holds rows. Only an explicit setting seeds; there is no default choice.
 *
 * <ul>
 *   <li>{@code min} — read everything present: W = smallest ID − 1;</li>
 *   <li>{@code zero} — start at W = 0 and let the gap rules handle a purged head;</li>
 *   <li>{@code max} — skip everything visible now: W = largest ID;</li>
 *   <li>a number — W = that ID.</li>
 * </ul>
 * Seeding happens once, in the same statement that records {@code SEEDED_AT}. An instance that has already
 * consumed (a watermark above zero, or any processing record) refuses to be seeded: moving its watermark
 * would skip or repeat messages. An instance seeded earlier ignores the setting.
 */
public final class CutoverSeeding {

    public static final String KEY = "msgx.pipeline.cutover-watermark";

    private final Mailbox mailbox;
    private final InboxCursors cursors;
    private final Clock clock;

    public CutoverSeeding(Mailbox mailbox, InboxCursors cursors, Clock clock) {
        this.mailbox = mailbox;
        this.cursors = cursors;
        this.clock = clock;
    }

    /** The outcome of {@link #seed}. */
    public sealed interface Outcome {

        /** The watermark intake starts from: the one seeded now, or the one seeded before. */
        long watermark();

        record Seeded(long watermark) implements Outcome {
        }

        record AlreadySeeded(long watermark) implements Outcome {
        }
    }

    /**
     * Seed according to {@code setting}.
     *
     * @throws IllegalArgumentException when the setting is not {@code min|zero|max|<id>}
     * @throws IllegalStateException    when the instance has consumed already and was never seeded
     */
    public Outcome seed(String setting) {
        var target = parse(setting);
        var cursor = cursors.load();
        if (cursor.seededAt() != null) {
            return new Outcome.AlreadySeeded(cursor.watermark());
        }
        long watermark = switch (target) {
            case "min" -> mailbox.minId().stream().map(id -> id - 1).findFirst().orElse(0L);
            case "zero" -> 0L;
            case "max" -> mailbox.maxId().orElse(0L);
            default -> Long.parseLong(target);
        };
        if (!cursors.seed(watermark, clock.instant())) {
            throw new IllegalStateException(KEY + "=" + setting + " refused: this instance has already consumed the "
                    + "mailbox (watermark " + cursors.load().watermark() + " or processing records exist). "
                    + "Seeding would skip or repeat messages; remove the setting to start normally.");
        }
        return new Outcome.Seeded(watermark);
    }

    private static String parse(String setting) {
        var value = setting == null ? "" : setting.strip().toLowerCase(Locale.ROOT);
        if (value.equals("min") || value.equals("zero") || value.equals("max")) {
            return value;
        }
        try {
            if (Long.parseLong(value) >= 0) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(KEY + " must be min, zero, max or a mailbox ID >= 0, got '" + setting + "'");
    }
}

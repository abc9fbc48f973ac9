package io.msgx.tools.simulator;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Sends some flight messages twice, as an AODB resending after a timeout does: the exact XML again (same
 * {@code SEQN}, so the same business identity), one to forty messages later.
 */
final class DuplicateSender {

    private final SplittableRandom random;

    DuplicateSender(SplittableRandom random) {
        this.random = random;
    }

    List<SimulatedMessage> sendAgain(List<SimulatedMessage> sent, int count) {
        var candidates = new ArrayList<Integer>();
        for (int i = 0; i < sent.size(); i++) {
            boolean sentAgain = switch (sent.get(i).kind()) {
                case SCHEDULE, ADFT, FLOP, FDEL -> true;
                case REFERENCE, DUPLICATE, IGNORED, MALFORMED -> false;
            };
            if (sentAgain) {
                candidates.add(i);
            }
        }
        var after = new ArrayList<List<SimulatedMessage>>();
        sent.forEach(m -> after.add(new ArrayList<>()));
        for (int original : Draws.choose(random, candidates, count)) {
            int slot = Math.min(sent.size() - 1, original + Draws.between(random, 1, 40));
            var first = sent.get(original);
            after.get(slot).add(new SimulatedMessage(first.xml(), SimulatedMessage.Kind.DUPLICATE, first.flid(),
                    "sent again: " + first.description(), sent.get(slot).writtenAt()));
        }
        var messages = new ArrayList<SimulatedMessage>();
        for (int i = 0; i < sent.size(); i++) {
            messages.add(sent.get(i));
            messages.addAll(after.get(i));
        }
        return messages;
    }
}

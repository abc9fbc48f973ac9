package io.msgx.pipeline.codec;

import io.msgx.domain.message.FlightBatch;
import io.msgx.domain.message.FlightDeletion;
import io.msgx.domain.message.FlightMessage;
import io.msgx.domain.message.FlightOperation;
import io.msgx.domain.message.ScheduleMessage;

/** The {@link MsgKind} a flight message is decoded as ({@link MsgKind#of(FlightMessage)}); a batch is its parts' kind. */
final class FlightMessageKind implements FlightMessage.Cases<MsgKind> {

    static final FlightMessageKind INSTANCE = new FlightMessageKind();

    private FlightMessageKind() {
    }

    @Override
    public MsgKind schedule(ScheduleMessage schedule) {
        return new MsgKind.Schd(schedule.kind());
    }

    @Override
    public MsgKind operation(FlightOperation operation) {
        return new MsgKind.Flop(operation.subtype());
    }

    @Override
    public MsgKind deletion(FlightDeletion deletion) {
        return new MsgKind.Fdel();
    }

    @Override
    public MsgKind batch(FlightBatch batch) {
        return batch.parts().get(0).match(this);
    }
}

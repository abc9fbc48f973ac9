package io.msgx.domain.engine;

import io.msgx.domain.message.FlightMessage;

/** One message kind's rule: read the snapshot, propose next contents or answer with a no-op or rejection. */
interface MessageHandler<M extends FlightMessage> {

    HandlerResult handle(M message, FlightSnapshot current, long msgId);
}

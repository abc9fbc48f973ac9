package io.msgx.runner.console;

import io.msgx.runner.embed.MsgExchange;
import io.msgx.runner.operations.OperatorActions;

/**
 * A page that shows what the store holds and offers the operator actions on it (a message, a flight, the DEAD
 * messages, the abandoned marks): it reads through the exchange, acts through {@link OperatorActions} (audited), and
 * renders with the console's templates.
 */
abstract class ActionPage {

    final MsgExchange exchange;
    final OperatorActions operator;
    final Templates templates;

    ActionPage(MsgExchange exchange, OperatorActions operator, Templates templates) {
        this.exchange = exchange;
        this.operator = operator;
        this.templates = templates;
    }
}

package io.msgx.domain.engine;

import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightList;
import io.msgx.domain.flight.FlightState;
import io.msgx.domain.flight.ListItem;
import io.msgx.domain.message.FieldChange;
import io.msgx.domain.message.FlightOperation;
import io.msgx.domain.message.FlightPatch;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * {@code FLOP}: one dynamic operational change to one flight (INV-20).
 *
 * <p>Rule. The operation needs a {@code FLID} and must carry what its subtype names; otherwise it is a
 * protocol error. A list subtype ({@code GTDT}, {@code DELY}, {@code ROUT}, ...) replaces that whole list, or merges
 * its items by key where the site configured it ({@link ListMode}); an empty element clears it. A scalar subtype ({@code STND}, {@code EOBT}, {@code TAOP}, {@code CSHR}, ...)
 * sets each field of its group the body carries, clears each one carried empty, and keeps the rest of the
 * group. Nothing outside the subtype's list or group changes, whatever else the body carries, except the flight's
 * extension document, which a body carrying anything unknown replaces (D-120); the operation day is kept. An operation on a FLID the store has never seen, or on a DELETED flight, changes nothing and
 * is reported as "no match" (the message ends {@code SKIPPED}): an operation never creates or revives a
 * flight. A {@code CSHR} that moves {@code MAID} also moves the flight between masters' {@code MAFL}s; the
 * engine versions those masters.
 */
final class FlopHandler implements MessageHandler<FlightOperation> {

    private final Function<FlightList, ListMode> listModes;

    /** @param listModes how a list subtype's items land on the flight's list (D-119) */
    FlopHandler(Function<FlightList, ListMode> listModes) {
        this.listModes = listModes;
    }

    @Override
    public HandlerResult handle(FlightOperation operation, FlightSnapshot current, long msgId) {
        var subtype = operation.subtype();
        if (!FlightId.isValid(operation.flid())) {
            return HandlerResult.rejected("FLOP " + subtype + " has no usable FLID");
        }
        var flid = FlightId.of(operation.flid());
        var patch = operation.patch();
        var change = subtype.list()
                .filter(patch::carries)
                .map(list -> new FlightPatch(Map.of(), Map.of(list, patch.lists().get(list))))
                .orElseGet(() -> scalarPart(operation));
        if (change.fields().isEmpty() && change.lists().isEmpty()) {
            return HandlerResult.rejected("FLOP " + subtype + " for FLID " + flid + " carries none of "
                    + subtype.list().map(l -> List.of(l.code())).orElseGet(() -> subtype.fields().stream()
                    .map(FlightField::code).toList()));
        }
        if (patch.carries(FlightList.EXTENSIONS)) {
            change = change.with(FlightList.EXTENSIONS, patch.lists().get(FlightList.EXTENSIONS));
        }
        var flight = current.find(flid);
        if (flight.isEmpty()) {
            return HandlerResult.noChange(Decision.NoChangeReason.OPERATION_ON_UNKNOWN_FLIGHT,
                    "FLOP " + subtype + " for unknown FLID " + flid);
        }
        if (!flight.get().isActive()) {
            return HandlerResult.noChange(Decision.NoChangeReason.OPERATION_ON_DELETED_FLIGHT,
                    "FLOP " + subtype + " for deleted FLID " + flid);
        }
        return new HandlerResult.Proposed(Map.of(flid, PatchMerge.MERGE.apply(flight.get(), landed(flight.get(), change))));
    }

    /** {@code change} with its list as its mode lands it on {@code flight}'s list: whole, or merged by key. */
    private FlightPatch landed(FlightState flight, FlightPatch change) {
        if (change.lists().isEmpty()) {
            return change;
        }
        var lists = new EnumMap<FlightList, List<ListItem>>(FlightList.class);
        change.lists().forEach((list, items) -> lists.put(list, listModes.apply(list).apply(list,
                flight.lists().get(list), items)));
        return new FlightPatch(change.fields(), lists);
    }

    private static FlightPatch scalarPart(FlightOperation operation) {
        var fields = new EnumMap<FlightField, FieldChange>(FlightField.class);
        for (var field : operation.subtype().fields()) {
            var change = operation.patch().fields().get(field);
            if (change != null) {
                fields.put(field, change);
            }
        }
        return new FlightPatch(fields, Map.of());
    }
}

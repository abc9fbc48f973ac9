package io.msgx.domain.flight;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.math.BigInteger;
import java.util.Comparator;

import static org.assertj.core.api.Assertions.assertThat;

/** The FLID order, which makes a MAFL byte-stable, is the documented one and a total order. */
class FlightIdOrderProperties {

    /** The documented order, spelled out slowly: numbers (no leading zero) by value first, then the rest by text. */
    private static final Comparator<String> DOCUMENTED = Comparator
            .comparing((String v) -> !v.matches("0|[1-9][0-9]*"))
            .thenComparing((a, b) -> a.matches("0|[1-9][0-9]*") && b.matches("0|[1-9][0-9]*")
                    ? new BigInteger(a).compareTo(new BigInteger(b)) : a.compareTo(b));

    @Provide
    Arbitrary<String> flids() {
        return Arbitraries.oneOf(
                Arbitraries.strings().withChars("0123456789").ofMinLength(1).ofMaxLength(8),
                Arbitraries.strings().withChars("0123456789ABZ-").ofMinLength(1).ofMaxLength(8));
    }

    @Property(tries = 2000)
    void flids_sort_in_the_documented_order(@ForAll("flids") String a, @ForAll("flids") String b) {
        assertThat(Integer.signum(FlightId.of(a).compareTo(FlightId.of(b))))
                .isEqualTo(Integer.signum(DOCUMENTED.compare(a, b)));
    }

    @Property(tries = 1000)
    void the_order_is_antisymmetric_and_consistent_with_equals(@ForAll("flids") String a, @ForAll("flids") String b) {
        var x = FlightId.of(a);
        var y = FlightId.of(b);
        assertThat(Integer.signum(x.compareTo(y))).isEqualTo(-Integer.signum(y.compareTo(x)));
        assertThat(x.compareTo(y) == 0).isEqualTo(x.equals(y));
    }
}

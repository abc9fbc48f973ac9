package io.msgx.testing;

import org.junit.jupiter.api.Tag;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A test that takes long (tens of seconds: a simulated day, a broker stopped and restarted, a browser, a fuzzing run):
 * left out of the edit-test loop ({@code mvn verify -Pfast}, D-96), always run by the full build and CI.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag(Slow.TAG)
public @interface Slow {

    /** The JUnit tag, for surefire's {@code excludedGroups}. */
    String TAG = "slow";
}

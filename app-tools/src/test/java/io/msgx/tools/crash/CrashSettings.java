package io.msgx.tools.crash;

/**
 * How hard one crash run is: how many times the runner is killed, how big the simulated day is, and the seed both
 * the day and the kill moments are drawn from. The default build runs a short form; the long form is asked for
 * with system properties, on the runner jar app-runner built (docs/reliability.md):
 *
 * <pre>{@code
 * mvn -o -pl app-tools verify -Dit.test=CrashRecoveryIT -Dtest=NONE -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dmsgx.crash.kills=100 -Dmsgx.crash.flights=200 [-Dmsgx.crash.seed=7]
 * }</pre>
 *
 * @param kills   how many times the runner is killed with SIGKILL before the final, undisturbed drain
 * @param flights the operated flights of the simulated day (about 20 messages each)
 * @param seed    the day's seed and the kill schedule's: the same seed gives the same input and the same planned
 *                kill delays (where a kill lands still depends on the machine's speed)
 */
public record CrashSettings(int kills, int flights, long seed) {

    public static final String KILLS = "msgx.crash.kills";
    public static final String FLIGHTS = "msgx.crash.flights";
    public static final String SEED = "msgx.crash.seed";

    public CrashSettings {
        if (kills < 1) {
            throw new IllegalArgumentException(KILLS + " must be at least 1, got " + kills);
        }
        if (flights < 1) {
            throw new IllegalArgumentException(FLIGHTS + " must be at least 1, got " + flights);
        }
    }

    /** The short form (6 kills, 25 flights, seed 10) unless the system properties ask for more. */
    public static CrashSettings fromSystemProperties() {
        return new CrashSettings(Integer.getInteger(KILLS, 6), Integer.getInteger(FLIGHTS, 25),
                Long.getLong(SEED, 10L));
    }
}

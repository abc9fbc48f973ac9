#!/usr/bin/env bash
# The long forms of the reliability suite (docs/reliability.md). The README's test command (`mvn verify`) runs a
# short form of every scenario; this runs each one at the size the figures in docs/reliability.md come from.
#
#   scripts/reliability.sh            # crash, outages, fuzz — one after the other
#   scripts/reliability.sh crash      # only the kill -9 loop: 100 kills on a 200-flight day
#   scripts/reliability.sh freeze     # only the freezes (JVM, store link, standby) at the default lease, 100 flights
#   scripts/reliability.sh outages    # only the outages (60 s each, 200 flights) and a hole storm ten times larger
#   scripts/reliability.sh fuzz       # only the 1,000,000 + 1,000,000 mutated messages
#   scripts/reliability.sh soak       # only the lifetime soak: 365 simulated days, or as many as 20 minutes hold
#   scripts/reliability.sh restarts   # the machine's PostgreSQL and MariaDB servers really stopped and started under
#                                     # load (they are shared: run nothing else meanwhile)
#
# Sizes can be changed with the same properties the tests read, e.g. CRASH_KILLS=300 scripts/reliability.sh crash.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

SUITES=("$@")
[ ${#SUITES[@]} -eq 0 ] && SUITES=(crash freeze outages restarts fuzz soak)
for suite in "${SUITES[@]}"; do
  case "$suite" in crash|freeze|outages|restarts|fuzz|soak) ;; *) echo "reliability.sh: unknown suite '$suite' (crash, freeze, outages, restarts, fuzz, soak)" >&2; exit 2 ;; esac
done

./scripts/start-services.sh
mvn -B -ntp -q install -DskipTests

# Only the named tests run; the rest of the module's suites are skipped.
only() {
  local module="$1" tests="$2" its="$3"; shift 3
  mvn -B -ntp -pl "$module" verify -Dtest="$tests" -Dit.test="$its" -Dsurefire.failIfNoSpecifiedTests=false \
      -Dfailsafe.failIfNoSpecifiedTests=false "$@"
}

for suite in "${SUITES[@]}"; do
  echo "== $suite ($(date -u +%H:%M:%S) UTC)"
  case "$suite" in
    crash)
      only app-tools NONE CrashRecoveryIT -Dmsgx.crash.kills="${CRASH_KILLS:-100}" \
          -Dmsgx.crash.flights="${CRASH_FLIGHTS:-200}" -Dmsgx.crash.seed="${CRASH_SEED:-10}" ;;
    freeze)
      only app-tools NONE FreezeRecoveryIT -Dmsgx.freeze.flights="${FREEZE_FLIGHTS:-100}" \
          -Dmsgx.freeze.seed="${FREEZE_SEED:-38}" ;;
    outages)
      only app-runner 'OutagesUnderLoadTest,HoleStormTest' NONE \
          -Dmsgx.reliability.outage-seconds="${OUTAGE_SECONDS:-60}" -Dmsgx.reliability.flights="${OUTAGE_FLIGHTS:-200}" \
          -Dmsgx.reliability.storm-scale="${STORM_SCALE:-10}" ;;
    restarts)
      only app-runner 'OutagesUnderLoadTest#*really*' NONE -Dmsgx.reliability.real-restarts=true \
          -Dmsgx.reliability.outage-seconds="${OUTAGE_SECONDS:-10}" ;;
    fuzz)
      only pipeline-core,pipeline-tests 'PipelineFuzzTest,CodecFuzzTest' NONE -Dmsgx.fuzz.count="${FUZZ_COUNT:-1000000}" \
          -Dmsgx.fuzz.codec-count="${FUZZ_CODEC_COUNT:-1000000}" ;;
    soak)
      # The report (one line a day, the plateaus, the cost) is app-tools/target/soak-report.md.
      only app-tools LifetimeSoakTest NONE -Dmsgx.soak.days="${SOAK_DAYS:-365}" -Dmsgx.soak.minutes="${SOAK_MINUTES:-20}" \
          -Dmsgx.soak.flights="${SOAK_FLIGHTS:-12}" -Dmsgx.soak.step-minutes="${SOAK_STEP_MINUTES:-30}" ;;
  esac
done
echo "== done ($(date -u +%H:%M:%S) UTC)"

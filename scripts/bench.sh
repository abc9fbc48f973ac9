#!/usr/bin/env bash
# The bench in one command on this kind of machine (docs/performance.md):
#   PostgreSQL + MariaDB (scripts/start-services.sh), a Kafka KRaft broker as a separate process
#   (scripts/kafka-broker.sh, stopped on exit), the tools' jar (built if missing), a scratch configuration,
#   then `msgexchange-tools bench` (D-89: the bench is not in the production jar). Every argument is passed to
#   the bench command:
#
#     scripts/bench.sh                                   # N = 200,000 (the default)
#     scripts/bench.sh --messages 50000 --live-seconds 30
#     scripts/bench.sh --messages 1000000 --json-out target/bench/bench-1m.json
#
# Everything it writes stays under target/ (nothing generated is committed): the JSON report goes to
# target/bench/bench-result.json unless --json-out names another file (the bench command's own default,
# bench-result.json in the working directory, is for runs against other installations).
# Scratch ground: the MariaDB database $BENCH_MYSQL_DB and the PostgreSQL schema $BENCH_PG_SCHEMA (both default
# msgx_bench) belong to the bench; this script drops and recreates them at every run. Nothing else is touched.
# The runner's log (stderr) goes to target/bench/runner.log; the report to stdout and the JSON report.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

PG_URL="${BENCH_PG_URL:-jdbc:postgresql://127.0.0.1:5432/test}"
PG_USER="${BENCH_PG_USER:-postgres}"
PG_SCHEMA="${BENCH_PG_SCHEMA:-msgx_bench}"
MYSQL_HOST="${BENCH_MYSQL_HOST:-127.0.0.1}"
MYSQL_DB="${BENCH_MYSQL_DB:-msgx_bench}"
HEAP="${BENCH_HEAP:--Xmx512m}"
OUT="$ROOT/target/bench"
JAR="$ROOT/app-tools/target/msgexchange-tools.jar"

case "$PG_SCHEMA$MYSQL_DB" in
  *[!A-Za-z0-9_]*) echo "bench.sh: BENCH_PG_SCHEMA and BENCH_MYSQL_DB must be plain identifiers" >&2; exit 2 ;;
esac

mkdir -p "$OUT"
BROKER_DIR="$(mktemp -d "$OUT/kafka.XXXXXX")"
CONFIG="$OUT/bench-config.properties"

# The JSON report under target/, unless the caller names the file (picocli takes --json-out only once).
JSON_OUT=(--json-out "$OUT/bench-result.json")
for arg in "$@"; do
  case "$arg" in
    --json-out|--json-out=*) JSON_OUT=() ;;
  esac
done

cleanup() {
  "$ROOT/scripts/kafka-broker.sh" stop "$BROKER_DIR" || true
  rm -rf "$BROKER_DIR"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "== services"
"$ROOT/scripts/start-services.sh"

echo "== Kafka broker (separate process)"
BOOTSTRAP="$("$ROOT/scripts/kafka-broker.sh" start "$BROKER_DIR")"
echo "Kafka at $BOOTSTRAP (pid $(cat "$BROKER_DIR/pid"))"

echo "== tools jar"
if [ ! -f "$JAR" ] || ! unzip -l "$JAR" 'io/msgx/tools/bench/Bench.class' >/dev/null 2>&1; then
  echo "building $JAR (mvn -q install -DskipTests)"
  mvn -q install -DskipTests
fi

# Run a copy: other builds in this checkout may replace the jar while a long bench runs.
RUN_JAR="$OUT/msgexchange-bench.jar"
cp "$JAR" "$RUN_JAR"

echo "== scratch ground: MariaDB database $MYSQL_DB, PostgreSQL schema $PG_SCHEMA (dropped and recreated)"
mysql -h "$MYSQL_HOST" -uroot -e "DROP DATABASE IF EXISTS \`$MYSQL_DB\`; CREATE DATABASE \`$MYSQL_DB\` CHARACTER SET utf8mb4"
PGOPTIONS="-c client_min_messages=warning" psql -h 127.0.0.1 -U "$PG_USER" -d "${PG_URL##*/}" -q -c "DROP SCHEMA IF EXISTS \"$PG_SCHEMA\" CASCADE"

cat > "$CONFIG" <<PROPS
msgx.store.url=$PG_URL
msgx.store.user=$PG_USER
msgx.store.schema=$PG_SCHEMA
msgx.mailbox.url=jdbc:mysql://$MYSQL_HOST:3306/$MYSQL_DB?sslMode=DISABLED&allowPublicKeyRetrieval=true
msgx.mailbox.user=root
msgx.kafka.bootstrap-servers=$BOOTSTRAP
PROPS

echo "== bench (runner log: $OUT/runner.log)"
set +e
java $HEAP -jar "$RUN_JAR" bench --config "$CONFIG" ${JSON_OUT[@]+"${JSON_OUT[@]}"} "$@" 2>"$OUT/runner.log"
status=$?
set -e
if [ $status -ne 0 ]; then
  echo "bench.sh: the bench exited with $status; last lines of $OUT/runner.log:" >&2
  tail -n 20 "$OUT/runner.log" >&2
fi
exit $status

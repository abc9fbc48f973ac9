#!/usr/bin/env bash
# A single-node Kafka KRaft broker (broker + controller) as a separate process, from the
# org.apache.kafka:kafka_2.13 jars on Maven Central (no Docker, no Kafka install).
#
#   scripts/kafka-broker.sh start DIR   # fetch the jars once, format DIR, start on free ports, wait for the port;
#                                       # writes DIR/pid and DIR/bootstrap (host:port), prints the bootstrap
#   scripts/kafka-broker.sh stop DIR    # stop the broker started in DIR (by its pid), wait until it is gone
#
# Jars: ${MSGX_KAFKA_LIB:-~/.cache/msgx/kafka_2.13-$KAFKA_VERSION/lib}, fetched with `mvn dependency:copy-dependencies`.
set -euo pipefail

KAFKA_VERSION="${KAFKA_VERSION:-4.4.0}"
LIB="${MSGX_KAFKA_LIB:-${XDG_CACHE_HOME:-$HOME/.cache}/msgx/kafka_2.13-$KAFKA_VERSION/lib}"
HEAP="${KAFKA_HEAP:--Xmx512m}"

fetch_jars() {
  if [ -f "$LIB/.complete" ]; then return 0; fi
  local work; work="$(dirname "$LIB")"
  mkdir -p "$work"
  cat > "$work/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>io.msgx.tools</groupId><artifactId>kafka-broker-jars</artifactId><version>1</version>
  <dependencies>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka_2.13</artifactId><version>$KAFKA_VERSION</version></dependency>
  </dependencies>
</project>
POM
  echo "kafka-broker: fetching kafka_2.13:$KAFKA_VERSION jars into $LIB" >&2
  mvn -q -f "$work/pom.xml" dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$LIB" >&2
  touch "$LIB/.complete"
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

start() {
  local dir="$1"
  fetch_jars
  mkdir -p "$dir"
  dir="$(cd "$dir" && pwd)"
  local port cport
  port="$(free_port)"; cport="$(free_port)"
  while [ "$cport" = "$port" ]; do cport="$(free_port)"; done
  cat > "$dir/server.properties" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.bootstrap.servers=127.0.0.1:$cport
listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$cport
advertised.listeners=PLAINTEXT://127.0.0.1:$port
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$dir/data
num.partitions=3
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
min.insync.replicas=1
default.replication.factor=1
group.initial.rebalance.delay.ms=0
PROPS
  local id
  id="$(java -cp "$LIB/*" kafka.tools.StorageTool random-uuid 2>/dev/null | tail -n1)"
  java -cp "$LIB/*" kafka.tools.StorageTool format -t "$id" -c "$dir/server.properties" --standalone \
    >"$dir/format.log" 2>&1 || { cat "$dir/format.log" >&2; exit 1; }
  nohup java $HEAP -cp "$LIB/*" kafka.Kafka "$dir/server.properties" >"$dir/broker.log" 2>&1 &
  echo $! > "$dir/pid"
  echo "127.0.0.1:$port" > "$dir/bootstrap"
  for _ in $(seq 120); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "127.0.0.1:$port"
      return 0
    fi
    if ! kill -0 "$(cat "$dir/pid")" 2>/dev/null; then
      echo "kafka-broker: the broker exited; see $dir/broker.log" >&2
      tail -n 30 "$dir/broker.log" >&2
      exit 1
    fi
    sleep 0.5
  done
  echo "kafka-broker: port $port not open after 60 s; see $dir/broker.log" >&2
  stop "$dir"
  exit 1
}

stop() {
  local dir="$1"
  [ -f "$dir/pid" ] || return 0
  local pid; pid="$(cat "$dir/pid")"
  if kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$dir/pid"
}

case "${1:-}" in
  start) start "${2:?usage: $0 start DIR}" ;;
  stop) stop "${2:?usage: $0 stop DIR}" ;;
  *) echo "usage: $0 start|stop DIR" >&2; exit 2 ;;
esac

#!/usr/bin/env bash
# Start the local PostgreSQL and MariaDB the adapter and pipeline tests use, and wait until both answer.
# Idempotent: a service already running is left alone. Kafka needs nothing here: tests start a real
# KRaft broker in-process (see docs/testing.md).
# On a machine where a server is not installed at all, it is left out with a note: the tests then start an
# embedded one themselves (docs/testing.md, decision D-90). A server that is installed and does not come up fails.
set -uo pipefail

pg=""
maria=""
if command -v pg_isready >/dev/null && [ -d /etc/postgresql ]; then pg=yes; fi
if command -v mysqladmin >/dev/null && [ -x /usr/sbin/mariadbd ]; then maria=yes; fi
if [ -z "$pg" ]; then echo "No local PostgreSQL installed: the tests will start an embedded one."; fi
if [ -z "$maria" ]; then echo "No local MariaDB installed: the tests will start an embedded one."; fi

pg_up() { [ -z "$pg" ] || pg_isready -h 127.0.0.1 -q 2>/dev/null; }
maria_up() { [ -z "$maria" ] || mysqladmin -h 127.0.0.1 -uroot ping >/dev/null 2>&1; }

if ! pg_up; then
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
fi
if ! maria_up; then
  start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd || true
fi

for _ in $(seq 60); do
  if pg_up && maria_up; then
    case "$pg/$maria" in
      yes/yes) echo "PostgreSQL and MariaDB are up." ;;
      yes/) echo "PostgreSQL is up." ;;
      /yes) echo "MariaDB is up." ;;
    esac
    exit 0
  fi
  sleep 1
done
echo "PostgreSQL or MariaDB did not come up within 60 s:" >&2
[ -z "$pg" ] || pg_isready -h 127.0.0.1 >&2 || true
[ -z "$maria" ] || mysqladmin -h 127.0.0.1 -uroot ping >&2 || true
exit 1

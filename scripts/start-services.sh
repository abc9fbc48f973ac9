#!/usr/bin/env bash
# Start the local PostgreSQL and MariaDB the adapter and pipeline tests use, and wait until both answer.
# Idempotent: a service already running is left alone. Kafka needs nothing here: tests start a real
# KRaft broker in-process (see docs/testing.md).
set -uo pipefail

if ! pg_isready -h 127.0.0.1 -q 2>/dev/null; then
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
fi
if ! mysqladmin -h 127.0.0.1 -uroot ping >/dev/null 2>&1; then
  start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd || true
fi

for _ in $(seq 60); do
  if pg_isready -h 127.0.0.1 -q && mysqladmin -h 127.0.0.1 -uroot ping >/dev/null 2>&1; then
    echo "PostgreSQL and MariaDB are up."
    exit 0
  fi
  sleep 1
done
echo "PostgreSQL or MariaDB did not come up within 60 s:" >&2
pg_isready -h 127.0.0.1 >&2 || true
mysqladmin -h 127.0.0.1 -uroot ping >&2 || true
exit 1

#!/usr/bin/env bash
# Start the local PostgreSQL and MariaDB the adapter and pipeline tests use, and wait until both answer.
# Idempotent: a service already running is left alone. Kafka needs nothing here: tests start a real
# KRaft broker in-process (see docs/testing.md).
# On a machine where a server is not installed at all, it is left out with a note: the tests then start an
# embedded one themselves (docs/testing.md, decision D-90). A server that is installed and does not come up fails.
#
# TLS (docs/tls.md, D-140): it then makes a small local CA and a server certificate for `localhost` in
# $MSGX_TEST_TLS_DIR (default /var/tmp/msgx-tls), turns TLS on in the local PostgreSQL by a reload (never a restart;
# connections without TLS keep working), and starts a second, TLS-only-for-the-tests MariaDB on 127.0.0.1:3307
# (MariaDB 10.11 cannot turn TLS on without a restart, and the shared one on 3306 is never restarted). The TLS tests
# use them, and skip when they are absent. Without openssl this part is left out with a note.
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

up=""
for _ in $(seq 60); do
  if pg_up && maria_up; then
    up=yes
    break
  fi
  sleep 1
done
if [ -z "$up" ]; then
  echo "PostgreSQL or MariaDB did not come up within 60 s:" >&2
  [ -z "$pg" ] || pg_isready -h 127.0.0.1 >&2 || true
  [ -z "$maria" ] || mysqladmin -h 127.0.0.1 -uroot ping >&2 || true
  exit 1
fi
case "$pg/$maria" in
  yes/yes) echo "PostgreSQL and MariaDB are up." ;;
  yes/) echo "PostgreSQL is up." ;;
  /yes) echo "MariaDB is up." ;;
esac

# ---- TLS for the tests (docs/tls.md, "The local set-up") ----
tls_dir=${MSGX_TEST_TLS_DIR:-/var/tmp/msgx-tls}
tls_maria_port=3307
if ! command -v openssl >/dev/null; then
  echo "No openssl: TLS to the local servers is not set up; the TLS tests will skip (docs/testing.md)."
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "Not root: TLS to the local servers is not set up (it installs files for postgres and mysql); the TLS tests will skip."
  exit 0
fi
tls_fail() { echo "TLS set-up: $*" >&2; exit 1; }

# The CA and the server certificate (for the name localhost only: 127.0.0.1 is the tests' wrong host name). Made
# once; made again when a file is missing or the server certificate expires within 30 days.
mkdir -p "$tls_dir" && chmod 0755 "$tls_dir"
if [ ! -s "$tls_dir/ca.crt" ] || [ ! -s "$tls_dir/ca.key" ] || [ ! -s "$tls_dir/server.crt" ] \
    || [ ! -s "$tls_dir/server.key" ] || [ ! -s "$tls_dir/ca.p12" ] \
    || ! openssl x509 -checkend 2592000 -noout -in "$tls_dir/server.crt" >/dev/null 2>&1; then
  (
    set -e
    umask 077
    cd "$tls_dir"
    openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days 3650 -subj "/CN=msgexchange local test CA" \
      -keyout ca.key -out ca.crt \
      -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
    openssl req -newkey rsa:2048 -nodes -sha256 -subj "/CN=localhost" -keyout server.key -out server.csr 2>/dev/null
    printf '%s\n' "basicConstraints=CA:FALSE" "keyUsage=critical,digitalSignature,keyEncipherment" \
      "extendedKeyUsage=serverAuth" "subjectAltName=DNS:localhost" > server.ext
    openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 825 -sha256 \
      -extfile server.ext -out server.crt 2>/dev/null
    rm -f server.csr server.ext ca.srl ca.p12
    # The CA as a PKCS#12 trust store for Java clients (Connector/J, Kafka); public material, the password
    # only seals the file.
    keytool -importcert -noprompt -alias msgx-local-ca -file ca.crt -keystore ca.p12 -storetype PKCS12 \
      -storepass changeit >/dev/null 2>&1
    chmod 0644 ca.crt ca.p12 server.crt
    chmod 0600 ca.key server.key
  ) || tls_fail "could not make the certificates in $tls_dir"
  echo "TLS: made a local CA and a server certificate for localhost in $tls_dir."
fi

# PostgreSQL: its own copy of the key in its data directory (owned by postgres, 0600, as it requires), ssl = on by
# ALTER SYSTEM and a reload. Host lines of pg_hba.conf match sessions with and without TLS alike.
if [ -n "$pg" ]; then
  pg_data=$(psql -h 127.0.0.1 -U postgres -d postgres -Atc "SHOW data_directory") || tls_fail "cannot ask PostgreSQL"
  pg_owner=$(stat -c %U "$pg_data")
  if ! cmp -s "$tls_dir/server.crt" "$pg_data/msgx-tls-server.crt" \
      || [ "$(psql -h 127.0.0.1 -U postgres -d postgres -Atc 'SHOW ssl')" != on ]; then
    install -o "$pg_owner" -g "$(stat -c %G "$pg_data")" -m 0600 "$tls_dir/server.key" "$pg_data/msgx-tls-server.key"
    install -o "$pg_owner" -g "$(stat -c %G "$pg_data")" -m 0644 "$tls_dir/server.crt" "$pg_data/msgx-tls-server.crt"
    psql -h 127.0.0.1 -U postgres -d postgres -q -v ON_ERROR_STOP=1 \
      -c "ALTER SYSTEM SET ssl_cert_file = '$pg_data/msgx-tls-server.crt'" \
      -c "ALTER SYSTEM SET ssl_key_file = '$pg_data/msgx-tls-server.key'" \
      -c "ALTER SYSTEM SET ssl = on" -c "SELECT pg_reload_conf()" >/dev/null || tls_fail "PostgreSQL refused the settings"
    sleep 1
  fi
  pg_tls=$(PGSSLMODE=verify-full PGSSLROOTCERT="$tls_dir/ca.crt" psql -h localhost -U postgres -d postgres -Atc \
    "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()" 2>&1)
  [ "$pg_tls" = t ] || tls_fail "PostgreSQL does not answer with TLS (verify-full) after the reload: $pg_tls (see its log)"
  echo "TLS: PostgreSQL answers with TLS on localhost:5432 (sessions without TLS still accepted)."
fi

# MariaDB: a second server for the TLS tests on 127.0.0.1:$tls_maria_port, its data in $tls_dir/mariadb.
if [ -n "$maria" ]; then
  md="$tls_dir/mariadb"
  maria_tls_up() { mysqladmin -h 127.0.0.1 -P "$tls_maria_port" -uroot ping >/dev/null 2>&1; }
  if ! maria_tls_up; then
    mkdir -p "$md" && chown mysql:mysql "$md" && chmod 0750 "$md"
    install -o mysql -g mysql -m 0600 "$tls_dir/server.key" "$md/server.key"
    install -o mysql -g mysql -m 0644 "$tls_dir/server.crt" "$md/server.crt"
    install -o mysql -g mysql -m 0644 "$tls_dir/ca.crt" "$md/ca.crt"
    if [ ! -d "$md/data/mysql" ]; then
      rm -rf "$md/data"
      mariadb-install-db --no-defaults --user=mysql --datadir="$md/data" --auth-root-authentication-method=normal \
        --skip-test-db >"$md/install.log" 2>&1 || tls_fail "mariadb-install-db failed, see $md/install.log"
    fi
    start-stop-daemon --start --quiet --background --pidfile "$md/mariadbd.pid" --exec /usr/sbin/mariadbd -- \
      --no-defaults --user=mysql --datadir="$md/data" --pid-file="$md/mariadbd.pid" --socket="$md/mysqld.sock" \
      --port="$tls_maria_port" --bind-address=127.0.0.1 --log-error="$md/error.log" \
      --ssl-cert="$md/server.crt" --ssl-key="$md/server.key" --ssl-ca="$md/ca.crt" \
      --innodb-buffer-pool-size=16M --performance-schema=OFF --character-set-server=utf8mb4 \
      --collation-server=utf8mb4_general_ci || true
    for _ in $(seq 60); do maria_tls_up && break; sleep 1; done
    maria_tls_up || tls_fail "the TLS MariaDB on 127.0.0.1:$tls_maria_port did not come up, see $md/error.log"
  fi
  # root from 127.0.0.1 without a password, as on the shared server (loopback only); a database for the tests.
  mysql --socket="$md/mysqld.sock" -uroot -e "CREATE USER IF NOT EXISTS 'root'@'127.0.0.1';
    GRANT ALL ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION; CREATE DATABASE IF NOT EXISTS test" 2>/dev/null || true
  maria_tls=$(mysql --protocol=TCP -h localhost -P "$tls_maria_port" -uroot --ssl --ssl-ca="$tls_dir/ca.crt" \
    --ssl-verify-server-cert -N -e \
    "SHOW STATUS LIKE 'Ssl_cipher'" 2>&1 | awk '{print $2}')
  [ -n "$maria_tls" ] || tls_fail "the MariaDB on 127.0.0.1:$tls_maria_port does not answer with TLS, see $md/error.log"
  echo "TLS: MariaDB answers with TLS on localhost:$tls_maria_port ($maria_tls)."
fi

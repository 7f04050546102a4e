#!/usr/bin/env bash
# Installs what is missing (Debian packages) and starts every server the cluster mode needs:
# PostgreSQL, Redis, ClickHouse 18.16 (transport test only) and Kafka, all on 127.0.0.1.
# Idempotent: servers already running are left alone. See infra/README.md for ports and env.
SERVICE=up
# shellcheck source=infra/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# One apt transaction for everything missing, instead of one per script.
apt_ensure openjdk-17-jre-headless maven postgresql redis-server redis-tools clickhouse-server curl

# Kafka is the slow one (JVM start, and Maven downloads on the first run): start it alongside.
bash "$INFRA_DIR/kafka.sh" start &
kafka_job=$!
rc=0
bash "$INFRA_DIR/postgres.sh" start || rc=1
bash "$INFRA_DIR/redis.sh" start || rc=1
bash "$INFRA_DIR/clickhouse.sh" start || rc=1
wait "$kafka_job" || rc=1
((rc == 0)) || die "some servers did not start (see above)"
log "all servers up in ${SECONDS}s"

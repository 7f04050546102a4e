#!/usr/bin/env bash
# Stops every server that infra/up.sh started. Their data stays in .infra/ for the next start;
# delete that directory for a clean slate.
SERVICE=down
# shellcheck source=infra/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

rc=0
for s in kafka clickhouse redis postgres; do
  bash "$INFRA_DIR/$s.sh" stop || rc=1
done
exit "$rc"

#!/usr/bin/env bash
# Lint speed on a generated single-table service: FILES files of about
# LINES lines each, written in the seeds' styles (constants and helpers
# imported across files, SDK commands, mbc services, one finding per file).
#
# Usage: bench/lint_speed.sh [KEYLINT] [FILES] [LINES]
# Prints the time of a whole run (hyperfine when installed, else the best
# of 5 runs) and the throughput in files and lines per second.
set -euo pipefail
# every run parses: the cache between runs (on by default) would make the
# runs after the first warm ones, and would be written into the trees
# (bench/compare.sh times the cache)
export KEYLINT_NO_CACHE=1

keylint=${1:-build/keylint}
files=${2:-1000}
lines=${3:-200}
keylint=$(cd "$(dirname "$keylint")" && pwd)/$(basename "$keylint")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

mkdir -p "$dir/src/keys" "$dir/src/services"
cat >"$dir/src/keys/index.ts" <<'TS'
import { KEY_SEPARATOR } from '@mbc-cqrs-serverless/core';
export const ORDER_PREFIX = 'ORDER';
export const ITEM_PREFIX = 'ORDER_ITEM';
export function orderPk(tenantCode: string) { return `${ORDER_PREFIX}${KEY_SEPARATOR}${tenantCode}`; }
export const itemSk = (orderId: string, itemId: string) =>
  `${ITEM_PREFIX}${KEY_SEPARATOR}${orderId}${KEY_SEPARATOR}${itemId}`;
TS
for ((f = 0; f < files; f++)); do
    {
        echo "import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';"
        echo "import { itemSk, orderPk } from '../keys';"
        echo "export class Service$f {"
        echo "  constructor(private readonly ddb: any, private readonly dataService: any) {}"
        n=0
        while ((n * 12 < lines)); do
            cat <<TS
  async get$n(tenantCode: string, orderId: string, itemId: string) {
    const pk = orderPk(tenantCode);
    await this.ddb.send(new GetCommand({ TableName: 'data', Key: { pk, sk: itemSk(orderId, itemId) } }));
    const params = { TableName: 'data', KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': pk, ':p': itemSk(orderId, '') } };
    await this.ddb.send(new QueryCommand(params));
    return this.dataService.getItem({ pk, sk: itemSk(orderId, itemId) });
  }
  async put$n(tenantCode: string, order: { id: string; total: number }) {
    await this.ddb.send(new PutCommand({ TableName: 'data', Item: { pk: orderPk(tenantCode), sk: \`ORDER#\${order.id}\`, total: order.total } }));
  }
TS
            n=$((n + 1))
        done
        echo "}"
    } >"$dir/src/services/service$f.ts"
done
total=$(cat "$dir"/src/services/*.ts | wc -l)
echo "generated $files files, $total lines in $dir"
cd "$dir"
"$keylint" --format concise src >/dev/null || true   # warm the page cache
if command -v hyperfine >/dev/null 2>&1; then
    hyperfine --warmup 1 --runs 5 --ignore-failure "'$keylint' --format concise src"
    exit 0
fi
best=
for _ in 1 2 3 4 5; do
    s=$(date +%s%N)
    "$keylint" --format concise src >/dev/null || true
    e=$(date +%s%N)
    t=$(((e - s) / 1000000))
    if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t; fi
done
echo "best of 5: ${best} ms for $files files ($((files * 1000 / (best > 0 ? best : 1))) files/s, $((total * 1000 / (best > 0 ? best : 1))) lines/s)"

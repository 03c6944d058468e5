import { TableClient } from '@ddb-lib/client';
import { PatternHelpers, createMultiAttributeKey } from '@ddb-lib/core';

const table = new TableClient({ tableName: 'MyTable', partitionKey: 'pk', sortKey: 'sk' });

export async function run(userId: string, orderId: string, at: string) {
  await table.put({
    item: {
      pk: PatternHelpers.entityKey('USER', userId),
      sk: PatternHelpers.compositeKey(['ORDER', at, orderId]),
      gsi1pk: PatternHelpers.distributedKey('STATUS#ACTIVE', 10),
    },
  });
  await table.put({ pk: createMultiAttributeKey({ country: 'US', state: 'CA' }), sk: `STORE#${orderId}` });
  const parsed = PatternHelpers.parseEntityKey('USER#123');
  return table.query({
    indexName: 'InvertedIndex',
    keyCondition: { gsi1pk: PatternHelpers.entityKey('ORDER', orderId), gsi1sk: { beginsWith: 'USER#' } },
  });
}

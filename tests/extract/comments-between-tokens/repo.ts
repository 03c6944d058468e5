import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { ORDER_PREFIX } from './index';

export async function get(ddb: any, id: string) {
  return ddb.send(new GetCommand(/* params */ {
    TableName: 'app', // the table
    Key: { /* pk */ PK: `${ORDER_PREFIX}#${id}`, // c
      SK: /* sk */ 'META' },
  }));
}

// Degenerate shapes that once crashed: index calls with no argument, and
// attribute names that are a lone bracket.
export function stack(table: dynamodb.Table) {
  table.addGlobalSecondaryIndex();
  table.addLocalSecondaryIndex();
  const odd = { ['[']: 'x', pk: `A#${table}` };
  return ddb.send(new QueryCommand({
    TableName: 'app',
    KeyConditionExpression: '#k = :v',
    ExpressionAttributeNames: { '#k': '[' },
    ExpressionAttributeValues: { ':v': 'USER#1' },
  }));
}

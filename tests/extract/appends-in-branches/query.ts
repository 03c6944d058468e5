import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';

declare const ddb: DynamoDBDocumentClient;

// One `+=` of each if/else (and switch) is taken, the first, and in a second
// operation the last: never two conditions the branches choose between.
export async function byRange(pk: string, from?: string, prefix?: string) {
  let kce = 'PK = :pk';
  if (from) {
    kce += ' AND SK >= :from';
  } else if (prefix) {
    kce += ' AND begins_with(SK, :prefix)';
  } else {
    kce += ' AND SK > :zero';
  }
  return ddb.send(new QueryCommand({ TableName: 'app', KeyConditionExpression: kce }));
}

export async function byKind(pk: string, kind: 'a' | 'b') {
  let kce = 'PK = :pk';
  switch (kind) {
    case 'a':
      kce += ' AND begins_with(SK, :a)';
      break;
    default:
      kce += ' AND begins_with(SK, :b)';
  }
  return ddb.send(new QueryCommand({ TableName: 'app', KeyConditionExpression: kce }));
}

// Appends that both run are both taken: the filter after the if/else.
export async function withFilter(pk: string, prefix?: string) {
  let kce = '#pk = :pk';
  if (prefix) kce += ' AND begins_with(#sk, :prefix)';
  else kce += ' AND #sk > :zero';
  kce += ' ';
  return ddb.send(new QueryCommand({
    TableName: 'app',
    KeyConditionExpression: kce,
    ExpressionAttributeNames: { '#pk': 'PK', '#sk': 'SK' },
  }));
}

// Pushes are read the same way.
export async function pushed(pk: string, from?: string) {
  const parts = ['PK = :pk'];
  if (from) parts.push('SK >= :from');
  else parts.push('begins_with(SK, :p)');
  return ddb.send(new QueryCommand({ TableName: 'app', KeyConditionExpression: parts.join(' AND ') }));
}

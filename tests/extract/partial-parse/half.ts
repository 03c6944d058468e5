// A line half typed in an editor: only the statement that holds it is
// left unread; the keys before and after it are read.
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';

export async function save(ddb: any, orderId: string) {
  await ddb.send(new PutCommand({ TableName: 'app', Item: { PK: `ORDER#${orderId}`, SK: 'META' } }));
  const half = await ddb.send(new QueryCommand({ TableName: 'app', KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk':
  await ddb.send(new PutCommand({ TableName: 'app', Item: { PK: `ITEM#${orderId}`, SK: 'META' } }));
}

export function later(userId: string) {
  return { PK: `USER#${userId}`, SK: 'PROFILE' };
}

import { QueryCommand } from '@aws-sdk/lib-dynamodb';

const PK = 'pk';
const BASE_VALUES = { ':type': 'ORDER' };

export async function list(ddb: any, userId: string, from?: string, cursor?: any) {
  const names = { '#pk': PK, '#sk': 'sk' };
  const params: any = {
    TableName: 'orders',
    KeyConditionExpression: `#pk = :pk` + (from ? ' AND #sk >= :from' : ''),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: { ...BASE_VALUES, ':pk': `USER#${userId}` },
  };
  if (from) {
    params.ExpressionAttributeValues[':from'] = `ORDER#${from}`;
  }
  if (cursor) params.ExclusiveStartKey = { pk: `USER#${userId}`, sk: cursor };
  return ddb.send(new QueryCommand(params));
}

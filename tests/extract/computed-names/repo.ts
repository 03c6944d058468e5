import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { GSI1_PK, Keys, NAME } from './attributes';

const LOCAL_SK = 'sort_key';

export async function save(ddb: any, userId: string, name: string) {
  await ddb.send(new PutCommand({
    TableName: 'users',
    Item: {
      [Keys.PK]: `USER#${userId}`,
      [LOCAL_SK]: 'PROFILE',
      [GSI1_PK]: `NAME#${name}`,
      [NAME]: name,
    },
  }));
  await ddb.send(new QueryCommand({
    TableName: 'users',
    KeyConditionExpression: '#pk = :pk',
    ExpressionAttributeNames: { '#pk': Keys.PK },
    ExpressionAttributeValues: { ':pk': `USER#${userId}` },
  }));
}

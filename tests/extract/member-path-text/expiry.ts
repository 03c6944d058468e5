import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';

declare const client: DynamoDBDocumentClient;

// A value written as a chain over several lines: the line breaks go, the
// space of `new Date` and the text of a string stay.
export async function put(ttl: number, name: string) {
  const day = new Date(ttl * 1000)
    .toISOString()
    .split('T')[0];
  await client.send(
    new PutCommand({
      TableName: 'ttl',
      Item: {
        PK: `EXPIRY#${day}`,
        SK: `NAME#${name.split(' ').join('_')}`,
        GSI1PK: `DAY#${new Date(ttl * 1000).getUTCDay()}`,
      },
    }),
  );
}

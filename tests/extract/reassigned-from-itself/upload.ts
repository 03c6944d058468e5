import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';

declare const db: DynamoDBDocumentClient;

// `name = f(name)`: the name inside reads the value before the assignment,
// so the key holds one call of the parameter, not calls nested without end.
export async function upload(body: string) {
  let { fileName, owner } = JSON.parse(body);
  fileName = decodeURIComponent(fileName);
  owner = owner.trim();
  owner = `${owner}`.toLowerCase();
  await db.send(new PutCommand({
    TableName: 'files',
    Item: { pk: `FILE#${owner}#${fileName}`, sk: 'META' },
  }));
}

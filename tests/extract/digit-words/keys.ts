import { PutCommand } from '@aws-sdk/lib-dynamodb';

// A digit then a capital starts a word: `v2Prefix` is a prefix, `gsi1Pk`
// a partition key, so their values are parts of the key.
export async function put(ddb: any, id: string, v: string) {
  const v2Prefix = `ORDER_V2#${v}`;
  const gsi1Pk = `${v2Prefix}#OPEN`;
  await ddb.send(new PutCommand({
    TableName: 't',
    Item: { pk: `${v2Prefix}#${id}`, sk: 'A', GSI1PK: `${gsi1Pk}` },
  }));
}

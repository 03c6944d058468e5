import { UpdateCommand } from '@aws-sdk/lib-dynamodb';

const TABLE = process.env.TABLE_NAME;

export const counterKey = (symbol: string, bucket: string) => ({
  pk: `AGG#MENTION#${symbol.toUpperCase()}`,
  sk: `BUCKET#${bucket}`,
});

// Upserts: each SET below writes a value the update's own Key holds, so
// only `count` (and `plan`, another value) is an attribute that changes.
export async function countHashtag(db: any, query: string, bucket: string) {
  const pk = `AGG#HASHTAG#${query}`;
  await db.send(
    new UpdateCommand({
      TableName: TABLE,
      Key: { pk, sk: `BUCKET#${bucket}` },
      UpdateExpression: 'ADD #count :one SET #type = :type, #scope = :scope',
      ExpressionAttributeNames: { '#count': 'count', '#type': 'type', '#scope': 'scope' },
      ExpressionAttributeValues: { ':one': 1, ':type': 'HASHTAG', ':scope': query },
    }),
  );
}

export async function countMention(db: any, symbol: string, bucket: string, plan: string) {
  await db.send(
    new UpdateCommand({
      TableName: TABLE,
      Key: counterKey(symbol, bucket),
      UpdateExpression: 'ADD #count :one SET #scope = :scope, #bucket = :bucket, #plan = :plan',
      ExpressionAttributeNames: { '#count': 'count', '#scope': 'scope', '#bucket': 'bucket', '#plan': 'plan' },
      ExpressionAttributeValues: { ':one': 1, ':scope': symbol.toUpperCase(), ':bucket': bucket, ':plan': plan },
    }),
  );
}

import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';

// A helper that returns an object of keys.
function orderKeys(customerId: string, orderId: string) {
  return {
    pk: `CUSTOMER#${customerId}`,
    sk: `ORDER#${orderId}`,
  };
}

async function loadOrder(db: any, id: string) {
  return db.send(new GetCommand({ TableName: 'orders', Key: { PK: `ORDER#${id}`, SK: 'META' } }));
}

export async function ship(db: any, customerId: string, orderId: string) {
  // a member of the object the call returns
  const keys = orderKeys(customerId, orderId);
  await db.send(
    new UpdateCommand({
      TableName: 'orders',
      Key: { PK: keys.pk, SK: keys.sk },
      UpdateExpression: 'SET shipped = :t',
      ExpressionAttributeValues: { ':t': true },
    }),
  );
}

export async function cancel(db: any, customerId: string, orderId: string) {
  // destructured, one of them renamed
  const { pk, sk: orderSk } = orderKeys(customerId, orderId);
  await db.send(
    new UpdateCommand({
      TableName: 'orders',
      Key: { PK: pk, SK: orderSk },
      UpdateExpression: 'SET cancelled = :t',
      ExpressionAttributeValues: { ':t': true },
    }),
  );
}

export async function touch(db: any, id: string) {
  // a field the helper does not return, and a call that is no helper:
  // both stay the values they are written as
  const keys = orderKeys(id, id);
  const found = await loadOrder(db, id);
  await db.send(
    new UpdateCommand({
      TableName: 'orders',
      Key: { PK: keys.partition, SK: found.Item.SK },
      UpdateExpression: 'SET touched = :t',
      ExpressionAttributeValues: { ':t': true },
    }),
  );
}

// A lookup that returns what it read: its fields are values it passes
// on, not keys it builds, and a field of its result is no call of it.
async function findOrder(db: any, id: string) {
  const r = await db.send(new GetCommand({ TableName: 'orders', Key: { PK: `ORDER#${id}`, SK: 'META' } }));
  return { pk: r.Item?.PK || '', note: r.Item?.note };
}

export async function annotate(db: any, id: string) {
  const found = await findOrder(db, id);
  await db.send(
    new UpdateCommand({
      TableName: 'orders',
      Key: { PK: found.pk, SK: 'META' },
      UpdateExpression: 'SET note = :n',
      ExpressionAttributeValues: { ':n': String(found.note || '') },
    }),
  );
}

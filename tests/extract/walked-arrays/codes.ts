import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';

const TABLE = 'Codes';

const emailKey = (email: string) => `EMAIL#${email}`;
const phoneKey = (phone: string) => `PHONE#${phone}`;

function lookupKeys(email: string, phone: string) {
  return [emailKey(email), phoneKey(phone)].filter(Boolean);
}

// for-of over a helper's array: each element is a key
export async function find(db: any, email: string, phone: string) {
  for (const pk of lookupKeys(email, phone)) {
    const r = await db.send(new GetCommand({ TableName: TABLE, Key: { pk } }));
    if (r.Item) return r.Item;
  }
}

// .map over a local array literal, shorthand and pair
export async function save(db: any, email: string, day: string) {
  const keys = [`EMAIL#${email}`, `DAY#${day}`];
  await Promise.all(keys.map((pk) => db.send(new PutCommand({ TableName: TABLE, Item: { pk, sk: pk } }))));
}

// not expanded: for-in walks indexes, a callback's second parameter is
// an index, and an array with a spread is not written out
export async function others(db: any, ids: string[]) {
  const keys = [`A#${ids[0]}`];
  for (const pk in keys) await db.send(new GetCommand({ TableName: TABLE, Key: { pk } }));
  keys.forEach((k, pk) => db.send(new GetCommand({ TableName: TABLE, Key: { pk } })));
  for (const pk of [...ids, 'X#1']) await db.send(new GetCommand({ TableName: TABLE, Key: { pk } }));
}

import { DynamoDBClient, GetItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';

const raw = new DynamoDBClient({});
const doc = DynamoDBDocumentClient.from(raw);

// each branch of a conditional key, nested ones too
export async function put(userId: string | undefined, day: string, admin: boolean) {
  await doc.send(new PutCommand({
    TableName: 'app',
    Item: { pk: userId ? `USER#${userId}` : (admin ? 'ADMINS' : `LOG#${day}`), sk: 'META' },
  }));
}

// marshall() around the key, the values, and a variable holding them
export async function get(userId: string) {
  const key = marshall({ pk: `USER#${userId}`, sk: 'PROFILE' });
  await raw.send(new GetItemCommand({ TableName: 'app', Key: key }));
  await raw.send(new QueryCommand({
    TableName: 'app',
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
    ExpressionAttributeValues: marshall({ ':pk': `USER#${userId}`, ':sk': 'ORDER#' }),
  }));
}

// values assigned one by one
export async function byType(tenantId: string, type?: string) {
  const values: Record<string, string> = {};
  values[':pk'] = `TENANT#${tenantId}`;
  values[':sk'] = type ? `${type}#` : 'ITEM#';
  await doc.send(new QueryCommand({
    TableName: 'app',
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
    ExpressionAttributeValues: values as any,
  }));
}

// values assigned on a params object after it is built
export async function byTenant(tenantId: string) {
  const params: any = { TableName: 'app', KeyConditionExpression: 'pk = :pk' };
  params.ExpressionAttributeValues = {};
  params.ExpressionAttributeValues[':pk'] = `TENANT#${tenantId}`;
  await doc.send(new QueryCommand(params));
}

// attribute names from another file's constants inside the expression
import { PK_NAME, SK_NAME } from './names';
export async function byPrefix(kbId: string) {
  await doc.send(new QueryCommand({
    TableName: 'app',
    KeyConditionExpression: `${PK_NAME} = :pk AND begins_with(${SK_NAME}, :skPrefix)`,
    ExpressionAttributeValues: { ':pk': 'DOCUMENT', ':skPrefix': `KB#${kbId}` },
  }));
}

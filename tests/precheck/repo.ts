import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { TABLE } from './config';

const ddb = DynamoDBDocumentClient.from({} as any);

// builds its keys from what its callers pass
export function saveItem(prefix: string, id: string) {
  return ddb.send(new PutCommand({ TableName: TABLE, Item: { pk: prefix + id, sk: 'META' } }));
}

export function getOrder(id: string) {
  return ddb.send(new PutCommand({ TableName: TABLE, Item: { pk: `ORDER#${id}`, sk: 'META' } }));
}

export function getShipment(id: string) {
  return ddb.send(new PutCommand({ TableName: TABLE, Item: { pk: `SHIPMENT#${id}`, sk: 'META' } }));
}

// a generic helper: its callers write type arguments before the call
export function loadItem<T>(prefix: string, id: string): Promise<T> {
  return ddb.send(new GetCommand({ TableName: TABLE, Key: { pk: `${prefix}#${id}`, sk: 'META' } })) as Promise<T>;
}

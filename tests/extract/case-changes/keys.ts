import { PutCommand } from '@aws-sdk/lib-dynamodb';
const KIND = 'order';
function keyFor(property: string, value: string) { return `${property.toUpperCase()}#${value}`; }
export const put = (ddb: any, id: string) => ddb.send(new PutCommand({ TableName: 't', Item: { pk: keyFor('date', id), sk: `${KIND.toUpperCase()}#${id}` } }));

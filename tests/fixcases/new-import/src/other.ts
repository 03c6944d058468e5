import { ORDER_PREFIX, SEP } from './keys';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
const c = DynamoDBDocumentClient.from({} as any);
export function other(id: string, t: string) {
  return c.send(new GetCommand({ TableName: 'app', Key: { pk: `${ORDER_PREFIX}${id}`, sk: `ITEM${SEP}${t}` } }));
}

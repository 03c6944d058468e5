import { Keys, SEP } from './keys';
import './setup';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
const c = DynamoDBDocumentClient.from({} as any);
export const other = (id: string, t: string) => c.send(new GetCommand({ TableName: 'app', Key: { pk: `${Keys.ORDER}${id}`, sk: `ITEM${SEP}${t}` } }));

import { DELIMITER } from './helpers';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
const c = DynamoDBDocumentClient.from({} as any);
export const other = (id: string) => c.send(new GetCommand({ TableName: 'app', Key: { PK: `USER${DELIMITER}${id}`, SK: `DATA${DELIMITER}${id}` } }));

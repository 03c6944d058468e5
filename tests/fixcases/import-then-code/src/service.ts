import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb'; const NOTE = `a
b`;
const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));
export function run(id: string) {
  return ddb.send(new GetCommand({ TableName: 'app', Key: { pk: `ORDER#${id}`, sk: NOTE } }));
}

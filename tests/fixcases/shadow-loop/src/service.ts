import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));
export async function run(id: string) {
  for (const ORDER_PREFIX of ['A#']) {
    return ddb.send(new GetCommand({ TableName: 'app', Key: { pk: `ORDER#${id}`, sk: ORDER_PREFIX } }));
  }
}

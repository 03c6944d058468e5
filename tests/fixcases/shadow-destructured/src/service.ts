import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));
export function run(id: string, cfg: any = { ORDER_PREFIX: 'LEGACY#' }) {
  const { ORDER_PREFIX } = cfg;
  return ddb.send(new GetCommand({ TableName: 'app', Key: { pk: `ORDER#${id}`, sk: ORDER_PREFIX } }));
}

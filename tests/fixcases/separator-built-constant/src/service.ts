import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { USER_SK_PREFIX } from './helpers';
const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));
export function run(id: string) {
  return ddb.send(new QueryCommand({
    TableName: 'app',
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': `USER#${id}`, ':from': `${USER_SK_PREFIX}#${id}`, ':to': '~' },
  }));
}

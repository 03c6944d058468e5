import {
  BatchWriteCommand, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';

export async function run(ddb: any, tenantId: string, id: string, status: string) {
  await ddb.send(new GetCommand({ TableName: 'app', Key: { PK: `TENANT#${tenantId}`, SK: `ORDER#${id}` } }));
  const item = { PK: `TENANT#${tenantId}`, SK: `ORDER#${id}`, GSI1PK: `STATUS#${status}`, total: 1 };
  await ddb.send(new PutCommand({ TableName: 'app', Item: item }));
  const params = {
    TableName: 'app',
    IndexName: 'GSI1',
    KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
    ExpressionAttributeNames: { '#pk': 'GSI1PK', '#sk': 'GSI1SK' },
    ExpressionAttributeValues: { ':pk': 'STATUS#' + status, ':from': 'A', ':to': 'Z' },
  };
  await ddb.send(new QueryCommand(params));
  await ddb.send(new UpdateCommand({
    TableName: 'app',
    Key: { PK: `TENANT#${tenantId}`, SK: `ORDER#${id}` },
    UpdateExpression: 'SET #st = :s, updatedAt = :now REMOVE draft',
    ExpressionAttributeNames: { '#st': 'status' },
  }));
  await ddb.send(new BatchWriteCommand({
    RequestItems: { app: [{ PutRequest: { Item: { PK: 'A', SK: `B#${id}` } } }, { DeleteRequest: { Key: { PK: 'A', SK: 'C' } } }] },
  }));
  await ddb.send(new TransactWriteCommand({
    TransactItems: [
      { Put: { TableName: 'app', Item: { PK: `X#${id}`, SK: 'META' } } },
      { Update: { TableName: 'audit-history', Key: { PK: `X#${id}`, SK: 'LOG' }, UpdateExpression: 'ADD hits :one' } },
    ],
  }));
  await ddb.send(new GetItemCommand({ TableName: 'app', Key: { PK: { S: `USER#${id}` }, SK: { S: 'PROFILE' } } }));
}

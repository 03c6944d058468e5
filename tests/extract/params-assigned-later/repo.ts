import { QueryCommand, QueryCommandInput } from '@aws-sdk/lib-dynamodb';

// Values set in branches, then copied by a spread before the call: each
// placeholder is read from the branch that set it.
export async function list(ddb: any, status?: string, type?: string) {
  const params: QueryCommandInput = { TableName: 'app', IndexName: 'gsi1' };
  if (status) {
    params.KeyConditionExpression = '#pk = :pk';
    params.ExpressionAttributeNames = { '#pk': 'gsi1pk' };
    params.ExpressionAttributeValues = { ':pk': `STATUS#${status}` };
  } else {
    params.KeyConditionExpression = 'begins_with(#pk, :prefix)';
    params.ExpressionAttributeNames = { '#pk': 'gsi1pk' };
    params.ExpressionAttributeValues = { ':prefix': 'STATUS#' };
  }
  if (type) {
    params.FilterExpression = '#type = :type';
    params.ExpressionAttributeValues = { ...params.ExpressionAttributeValues, ':type': type };
  }
  return ddb.send(new QueryCommand(params));
}

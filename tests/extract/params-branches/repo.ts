import { QueryCommand } from '@aws-sdk/lib-dynamodb';

// Each branch a query of its own, its condition with its own values.
export async function byStatus(ddb: any, org: string, status?: string) {
  const params: any = { TableName: 'app', IndexName: 'GSI1' };
  if (status) {
    params.KeyConditionExpression = 'GSI1PK = :pk AND begins_with(GSI1SK, :s)';
    params.ExpressionAttributeValues = { ':pk': `ORG#${org}`, ':s': `STATUS#${status}` };
  } else {
    params.KeyConditionExpression = 'GSI1PK = :pk';
    params.ExpressionAttributeValues = { ':pk': `ORG#${org}` };
  }
  return ddb.send(new QueryCommand(params));
}

// Ternaries of one condition (`!` flips it) choose together.
export async function ternary(ddb: any, org: string, from?: string) {
  const params: any = { TableName: 'app' };
  params.KeyConditionExpression = from ? 'pk = :pk AND sk > :from' : 'pk = :pk';
  params.ExpressionAttributeValues = !from ? { ':pk': `ORG#${org}` } : { ':pk': `ORG#${org}`, ':from': `AT#${from}` };
  return ddb.send(new QueryCommand(params));
}

// A switch: fall-through joins a case to the next.
export async function byKind(ddb: any, org: string, kind: string) {
  const params: any = { TableName: 'app', ExpressionAttributeValues: { ':pk': `ORG#${org}` } };
  switch (kind) {
    case 'a':
      params.IndexName = 'GSI1';
    case 'b':
      params.KeyConditionExpression = 'GSI1PK = :pk';
      break;
    default:
      params.KeyConditionExpression = 'pk = :pk';
  }
  return ddb.send(new QueryCommand(params));
}

// More combinations than the cap: the last assignment, as before.
export async function many(ddb: any, a: any, b: any, c: any, d: any) {
  const params: any = { TableName: 'app', ExpressionAttributeValues: { ':pk': 'x' } };
  if (a) params.KeyConditionExpression = 'pk = :pk'; else params.KeyConditionExpression = 'pk = :pk ';
  if (b) params.KeyConditionExpression = 'pk = :pk'; else params.KeyConditionExpression = 'pk = :pk  ';
  if (c) params.KeyConditionExpression = 'pk = :pk'; else params.KeyConditionExpression = 'pk = :pk   ';
  if (d) params.KeyConditionExpression = 'pk = :pk'; else params.KeyConditionExpression = 'pk = :pk    ';
  return ddb.send(new QueryCommand(params));
}

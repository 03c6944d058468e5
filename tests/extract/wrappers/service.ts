import { dal } from './dal';

export async function branchEvents(repo: any, orgId: string, branchId: string) {
  await repo.saveRow('events', { pk: `org#${orgId}`, sk: `branch#${branchId}` });
  return dal.getRowsFromDynamoDB({
    tableName: 'events',
    keyCondition: 'pk = :v1 and begins_with(sk, :v2)',
    expressionAttributeValues: { ':v1': { S: `org#${orgId}` }, ':v2': { S: 'branch#' } },
  });
}

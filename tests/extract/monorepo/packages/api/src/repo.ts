import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { EntityType, ORDER_PREFIX, TENANT_SEPARATOR } from '@acme/shared';
import { ORDER_PREFIX as SAME_PREFIX } from '@keys/prefixes';

export const put = (ddb: any, tenantCode: string, id: string) =>
  ddb.send(new PutCommand({
    TableName: 'app',
    Item: {
      pk: `${ORDER_PREFIX}${TENANT_SEPARATOR}${tenantCode}`,
      sk: `${EntityType.Invoice}${TENANT_SEPARATOR}${id}`,
      gsi1pk: `${SAME_PREFIX}#${id}`,
    },
  }));

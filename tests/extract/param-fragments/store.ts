import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';

// The callee joins what its callers build.
export async function putEntity(ddb: any, prefix: string, id: string, data: object) {
  await ddb.send(new PutCommand({ TableName: 't', Item: { pk: `${prefix}${id}`, sk: 'META', ...data } }));
}

export class Store {
  constructor(private readonly ddb: any) {}

  async get(pk: string, kind: string) {
    return this.ddb.send(new GetCommand({ TableName: 't', Key: { pk, sk: `${kind}#LATEST` } }));
  }

  async latestOrder(tenantCode: string) {
    return this.get(`ORDER#${tenantCode}`, 'ORDER');
  }
}

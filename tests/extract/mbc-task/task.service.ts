// Written through a data call, then returned: a write, not a definition.
export class TaskService {
  constructor(private readonly dynamoDbService: any) {}

  async create(tenantCode: string, id: string) {
    const item = { pk: `TASK#${tenantCode}`, sk: `TASK#${id}`, status: 'CREATED' };
    await this.dynamoDbService.putItem('tasks', item);
    return item;
  }

  // Only returned: the entity's key definition.
  keysOf(tenantCode: string, id: string) {
    const keys = { pk: `TASK#${tenantCode}`, sk: `TASK#${id}` };
    return keys;
  }
}

import {
  addSortKeyVersion, generateId, KEY_SEPARATOR, masterPk, removeSortKeyVersion, TENANT_COMMON, VER_SEPARATOR,
} from '@mbc-cqrs-serverless/core';

const PRODUCT_PK_PREFIX = 'PRODUCT';

export class ProductService {
  constructor(private readonly dataService: any, private readonly historyService: any, private readonly commandService: any) {}

  async find(tenantCode: string, sk: string, v: number) {
    const pk = `${PRODUCT_PK_PREFIX}${KEY_SEPARATOR}${tenantCode}`;
    const versioned = addSortKeyVersion(sk, v);
    await this.historyService.getItem({ pk, sk: versioned });
    await this.dataService.getItem({ pk, sk: removeSortKeyVersion(versioned) });
    await this.dataService.getItem({ pk: masterPk(tenantCode), sk: `${sk}${VER_SEPARATOR}${v}` });
    return this.dataService.listItemsByPk(`USER${KEY_SEPARATOR}${TENANT_COMMON}`, {
      sk: { skExpession: 'begins_with(sk, :p)', skAttributeValues: { ':p': `${tenantCode}${KEY_SEPARATOR}` } },
    });
  }

  async create(tenantCode: string, code: string) {
    const pk = `${PRODUCT_PK_PREFIX}${KEY_SEPARATOR}${tenantCode}`;
    return this.commandService.publishAsync({ pk, sk: code, id: generateId(pk, code), version: 0 });
  }
}

// Not the framework's: a local function of the same name.
function generateIdLocal(a: string) { return a; }

import { Entity, Table } from 'dynamodb-toolbox';

export const Network = new Entity({
  name: 'NETWORK',
  attributes: {
    id: { partitionKey: true, default: (data: { areaId: string }) => `AREA#${data.areaId}` },
    sk: { sortKey: true, default: (data: { areaId: string; networkId: string }) => `AREA#${data.areaId}#NETWORK#${data.networkId}` },
    gsi1pk: { partitionKey: 'gsi1', map: 'GSI1PK', default: (d: { type: string }) => `TYPE#${d.type}` },
    name: { type: 'string' },
  },
  table: new Table({ name: 'demo', partitionKey: 'id', sortKey: 'sk' }),
} as const);

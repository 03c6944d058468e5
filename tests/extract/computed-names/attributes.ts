export enum Keys {
  PK = 'partition_key',
  SK = 'sort_key',
}
export const GSI1_PK = 'GSI1PK';
export const NAME = 'displayName';

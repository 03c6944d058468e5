export const SEP = '#';
export const USER_PREFIX = `USER${SEP}`;
export enum Entity { Order = 'ORDER', Item = 'ITEM' }
export const Prefix = { TEAM: 'TEAM', nested: { MEMBER: 'MEMBER' } } as const;
const PRIVATE = 'PRIVATE';
export { PRIVATE as EXPORTED_PRIVATE };

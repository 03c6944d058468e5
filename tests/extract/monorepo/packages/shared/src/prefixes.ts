export const ORDER_PREFIX = 'ORDER';
export enum EntityType { Invoice = 'INVOICE' }

import { putEntity } from './store';

export const saveOrder = (ddb: any, id: string) => putEntity(ddb, 'ORDER#', id, {});
export const greet = (name: string) => console.log(`hello ${name}`);

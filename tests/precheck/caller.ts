import { saveItem } from './repo';

// no key words: read because it calls a helper that builds keys
const kind = 'CUSTOMER';
export const create = (id: string) => saveItem(kind, id);

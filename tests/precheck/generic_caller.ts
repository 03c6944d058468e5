import { loadItem } from './repo';

interface Invoice {
  total: number;
}

// no key words: read because it calls a helper that builds keys, with
// type arguments between the name and the call
export const invoice = (id: string) => loadItem<Invoice>('INVOICE', id);

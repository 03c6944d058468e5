export let ORDER_PREFIX = 'ORDER#';
export function rename() { ORDER_PREFIX = 'ORD#'; }
export const SEP = '#';

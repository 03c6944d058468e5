import { Keys } from './keys';
Keys.ORDER = 'ORD#';
export {};

// Which constants hold their initializer at run time (ConstDef.fixed) and
// which names the file assigns to (FileIR.mutated).
export const ORDER = 'ORDER#';                    // fixed
export let ITEM = 'ITEM#';                        // may change: let
var LEGACY = 'LEGACY#';                           // may change: var
export const Keys = { USER: 'USER#', TEAM: 'TEAM#' } as const; // fixed
const base = { A: 'A#' };
export const Spread = { B: 'B#', ...base };       // may change: a spread
export const Twice = { C: 'C#', C: 'CC#', D: 'D#' }; // C may change, D is fixed
export enum Kind { Order = 'ORDER', Item = 'ITEM' } // fixed

export function rename(next: string) {
  ITEM = next;
  Keys2.USER += '!';
  Object.assign(Spread, { B: 'X#' });
  delete Twice.D;
  counter++;
  [first, { second }] = pair(next);
}
declare const Keys2: { USER: string };
declare let counter: number, first: string, second: string;
declare function pair(s: string): [string, { second: string }];
export const use = `${ORDER}${ITEM}${LEGACY}${Keys.USER}${Spread.B}${Twice.C}${Kind.Order}`;

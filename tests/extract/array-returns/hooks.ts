// Functions that return arrays: a tuple is not a key; an array that says
// what it holds (a text label or a constant) is one, as Turbine joins it.
import { useState } from 'react';

export const ORDER_PREFIX = 'ORDER';
const Prefix = { USER: 'USER' } as const;

export function useFormFields(initialState: Record<string, string>) {
  const [fields, setValues] = useState(initialState);
  return [fields, (e: { id: string; value: string }) => setValues({ ...fields, [e.id]: e.value })];
}

export const usePair = (a: string, b: string) => [a, b];

export const userParts = (id: string) => ['USER', id];

export const orderParts = (tenant: string, id: string) => [ORDER_PREFIX, tenant, id];

export const memberParts = (id: string) => [Prefix.USER, id];

export const sessionKey = (user: string, session: string) => [user, session];

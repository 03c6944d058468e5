// Key objects handed to a project's query helpers as a property of the
// argument: read sites, literal or not. A literal object under another
// property stays a plain object.
import { getAllItems, getPaginatedItems, render } from './dal';

export async function connections() {
  return getAllItems({ keys: { pk: 'connection', sk: 'connection#' } });
}

export async function users(pageSize: number) {
  const usersKeys = { pk: 'user' };
  return getPaginatedItems({ keys: usersKeys, pageSize });
}

export function screen() {
  return render({ row: { pk: 'user', sk: 'user#1' } });
}

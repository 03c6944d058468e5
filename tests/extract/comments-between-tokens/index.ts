// Comments anywhere between tokens are not children: an export clause, the
// arguments of a call and the properties of an object hold what they hold.
export { ORDER_PREFIX, /* c */ ITEM_PREFIX } from './keys';
export { USER_PREFIX, // c
  TEAM_PREFIX } from './keys';

export const ORDER_PREFIX = 'ORDER';
export const ITEM_PREFIX = 'ITEM';
export const USER_PREFIX = 'USER';
export const TEAM_PREFIX = 'TEAM';

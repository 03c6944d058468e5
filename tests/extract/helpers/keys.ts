const SEPARATOR = '#';
export function userPk(userId: string): string {
  return `USER${SEPARATOR}${userId}`;
}
export const orderSk = (createdAt: string, orderId: string) => ['ORDER', createdAt, orderId].join(SEPARATOR);
export const Keys = {
  team: (teamId: string) => `TEAM#${teamId}`,
  member(teamId: string, userId: string) { return `TEAM#${teamId}#MEMBER#${userId}`; },
};
// Not key helpers: a greeting and a log line.
export const greet = (name: string) => `Hello ${name}`;
export function describe(id: string) { return `order #${id}`; }

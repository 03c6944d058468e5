import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { Keys, orderSk, userPk } from './keys';

export async function get(ddb: any, userId: string, orderId: string, at: Date) {
  const pk = userPk(userId);
  await ddb.send(new GetCommand({ TableName: 't', Key: { pk, sk: orderSk(at.toISOString(), orderId) } }));
  await ddb.send(new GetCommand({ TableName: 't', Key: { pk: Keys.team(orderId), sk: Keys.member(orderId, userId) } }));
}

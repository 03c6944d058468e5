import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { gsi2ByEmail, UserKeys } from './keys';

export class UserRepository {
  constructor(private readonly ddb: any) {}

  private orderSk(orderId: string) {
    return `ORDER#${orderId}`;
  }

  async create(userId: string, email: string) {
    const extra = { gsi3pk: `ALL#${userId}` };
    await this.ddb.send(new PutCommand({
      TableName: 't',
      Item: { pk: UserKeys.pk(userId), sk: UserKeys.profileSk(), ...gsi2ByEmail(email, userId), ...extra },
    }));
    await this.ddb.send(new PutCommand({
      TableName: 't',
      Item: { pk: UserKeys.pk(userId), sk: this.orderSk(email) },
    }));
  }
}

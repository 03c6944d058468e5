import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { Entity, Prefix, USER_PREFIX, EXPORTED_PRIVATE } from './index';
import * as K from './keys.js';

export const put = (ddb: any, teamId: string, userId: string) =>
  ddb.send(new PutCommand({
    TableName: 't',
    Item: {
      pk: `${USER_PREFIX}${userId}`,
      sk: `${Entity.Order}${K.SEP}${Prefix.nested.MEMBER}${K.SEP}${teamId}`,
      gsi1pk: `${Prefix.TEAM}#${teamId}`,
      gsi1sk: EXPORTED_PRIVATE,
    },
  }));

// A sort key taken from a member of a constants object through a local
// variable: the variable is followed to the member, which resolves.
export const putProfile = (ddb: any, userId: string) => {
  const sortKey = Prefix.nested.MEMBER;
  return ddb.send(new PutCommand({ TableName: 't', Item: { pk: `${USER_PREFIX}${userId}`, sk: sortKey } }));
};

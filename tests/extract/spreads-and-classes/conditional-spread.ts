import { PutCommand } from '@aws-sdk/lib-dynamodb';

function albumChildKeys(parentAlbumId: string, albumId: string) {
  return { GSI1PK: `ALBUM#${parentAlbumId}`, GSI1SK: `ALBUM#${albumId}` };
}

// An index's keys written on some items only: a conditional spread, its
// object in a variable. Both branches are read (the second has no key).
export const putAlbum = (ddb: any, tenantId: string, id: string, parentAlbumId?: string) => {
  const gsi = parentAlbumId ? albumChildKeys(parentAlbumId, id) : undefined;
  return ddb.send(new PutCommand({
    TableName: 't',
    Item: { PK: `TENANT#${tenantId}`, SK: `ALBUM#${id}`, ...(gsi ? gsi : {}) },
  }));
};

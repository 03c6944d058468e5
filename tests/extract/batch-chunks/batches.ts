// Batches cut from mapped keys (keys.slice), requests made by mapping a
// chunk, and items built by a helper: each key is read with its operation.
import { DynamoDBDocumentClient, BatchGetCommand, BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
const db = DynamoDBDocumentClient.from(client);
function buildItem(tenantId: string, id: string) {
    return { PK: `TENANT#${tenantId}`, SK: `CATPROD#${id}`, title: 'x' };
}
export async function load(tenantId: string, productIds: string[]) {
    const keys = productIds.map((pid: string) => ({
        PK: `TENANT#${tenantId}`,
        SK: `PRODUCT#${pid}`,
    }));
    for (let i = 0; i < keys.length; i += 100) {
        const batch = keys.slice(i, i + 100);
        await db.send(new BatchGetCommand({ RequestItems: { [TABLE_NAME]: { Keys: batch } } }));
    }
}
export async function remove(tenantId: string, ids: string[]) {
    const keys = ids.map(id => ({ PK: `TENANT#${tenantId}`, SK: `LINK#${id}` }));
    for (let i = 0; i < keys.length; i += 25) {
        const batch = keys.slice(i, i + 25);
        await db.send(new BatchWriteCommand({
            RequestItems: { [TABLE_NAME]: batch.map(key => ({ DeleteRequest: { Key: key } })) },
        }));
    }
}
export async function save(tenantId: string, ids: string[]) {
    const items = ids.map(id => buildItem(tenantId, id));
    for (let i = 0; i < items.length; i += 25) {
        const batch = items.slice(i, i + 25);
        await db.send(new BatchWriteCommand({
            RequestItems: { [TABLE_NAME]: batch.map(item => ({ PutRequest: { Item: item } })) },
        }));
    }
}

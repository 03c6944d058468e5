import z from 'zod';
import { defineEntity, defineTable } from 'dynamodb-turbine';

export const table = defineTable({
  name: 'app',
  indexes: { table: { hashKey: 'pk', rangeKey: 'sk' }, gsi1: { hashKey: 'gsi1pk', rangeKey: 'gsi1sk' } },
});

export const posts = defineEntity({
  table,
  schema: z.object({ id: z.string(), authorId: z.string(), createdAt: z.string() }),
  keys: {
    type: () => 'post',
    pk: (p) => ['user', p.authorId],
    sk: (p) => ['post', p.createdAt, p.id],
    gsi1pk: () => 'post#feed',
    gsi1sk: (p) => [p.createdAt, p.id],
  },
});

import { get, put, query } from '@aws-appsync/utils/dynamodb';

export function request(ctx) {
  return get({ key: { pk: `POST#${ctx.args.id}`, sk: 'META' } });
}

export function listComments(ctx) {
  return query({ query: { pk: { eq: `POST#${ctx.args.id}` }, sk: { beginsWith: 'COMMENT#' } }, index: 'byPost' });
}

export function createPost(ctx) {
  const key = { pk: `POST#${ctx.args.id}`, sk: 'META' };
  const item = { ...ctx.args, gsi1pk: `AUTHOR#${ctx.identity.sub}` };
  return put({ key, item });
}

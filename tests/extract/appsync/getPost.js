import { get, query } from '@aws-appsync/utils/dynamodb';

export function request(ctx) {
  return get({ key: { pk: `POST#${ctx.args.id}`, sk: 'META' } });
}

export function listComments(ctx) {
  return query({ query: { pk: { eq: `POST#${ctx.args.id}` }, sk: { beginsWith: 'COMMENT#' } }, index: 'byPost' });
}

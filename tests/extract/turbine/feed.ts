import { posts } from './entities';

export async function userPosts(userId: string) {
  return posts.queryAll({ pk: ['user', userId], sk: { beginsWith: 'post#' } });
}

export async function feed() {
  return posts.query({ index: 'gsi1', gsi1pk: 'post#feed' }, { ScanIndexForward: false, Limit: 20 });
}

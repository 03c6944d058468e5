import { DataService, addSortKeyVersion } from '@mbc-cqrs-serverless/core';
const dataService = new DataService();
export function run(baseSk: string) {
  const pk = 'P#1';
  const sk = addSortKeyVersion(baseSk, 3);
  return dataService.getItem({
    pk,
    sk, // versioned
  });
}

import { DataService, addSortKeyVersion } from '@mbc-cqrs-serverless/core';
import * as core from '@mbc-cqrs-serverless/core';
const dataService = new DataService();
export function run(baseSk: string) {
  const pk = 'P#' + core.KEY_SEPARATOR;
  const sk = addSortKeyVersion(baseSk, 3);
  return dataService.getItem({ pk, sk });
}

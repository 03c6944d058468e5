import { Network } from './entities';

export async function byArea(areaId: string, networkId?: string) {
  const pk = `AREA#${areaId}`;
  return Network.query(pk, { beginsWith: `${pk}#NETWORK`, index: networkId ? 'gsi1' : undefined });
}

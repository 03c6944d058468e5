import { PutObjectCommand } from '@aws-sdk/client-s3';

export async function upload(s3: any, logger: any, tenant: string, file: string, pk: string) {
  logger.info(`writing item #${file} for ${tenant}`);
  await s3.send(new PutObjectCommand({ Bucket: 'b', Key: `uploads/${tenant}/${file}` }));
  const [prefix, id] = pk.split('#');
  if (pk.startsWith('ORDER#')) throw new Error(`bad key ${pk}#`);
  const m = new Map<string, number>();
  m.set(`a#${id}`, 1);
  return { prefix, id, cleaned: pk.replace('#', '') };
}

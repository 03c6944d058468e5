export * from './prefixes';
export { default as TENANT_SEPARATOR } from './separator';

export const PK_NAME = 'partition_key';
export const SK_NAME = 'sort_key';

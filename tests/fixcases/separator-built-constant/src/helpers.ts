export const DELIMITER = '#';
export const USER_SK_PREFIX = `${DELIMITER}DATA`;

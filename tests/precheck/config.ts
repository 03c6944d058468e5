// nothing for keylint here, but repo.ts imports the table name
export const TABLE = 'orders';

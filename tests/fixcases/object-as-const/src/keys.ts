export const Keys = { ORDER: 'ORDER#', ITEM: 'ITEM#' } as const;

export const Keys = { ORDER: 'ORDER#' };
export const SEP = '#';

// UI code with a syntax error: nothing for keylint, never parsed
export const label = <%= name %>;

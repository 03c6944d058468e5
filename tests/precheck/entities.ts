// imported by no key code: its constants still name the key design
export const ItemType = {
  ORDER: 'ORDER',
} as const;

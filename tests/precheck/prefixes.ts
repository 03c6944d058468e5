// cleared by the pre-check; its constant's value is on the line after its
// name (the note counts the braces back from that line)
export const EntityPrefix = {
  label: 'Prefixes',
  SHIPMENT:
    'SHIPMENT',
};

// names DynamoDB, so the pre-check passes it, yet it holds nothing keylint
// reads: the module it imports (widget.ts) is not read for it
import { label } from './widget';

export function Panel() {
  return label.toUpperCase();
}

// Valid TSX that tree-sitter-typescript 0.23 rejects: a bare '&' in JSX
// text and attribute strings, '&lt' without a semicolon, a decimal
// character reference of six digits. Read whole, keys included.
import { GetCommand } from '@aws-sdk/lib-dynamodb';

export const Terms = () => (
  <p className="a & b">
    Terms & Conditions, a=b &lt here <a href="/fonts?family=Inter&display=swap">x</a> &#128197; &amp;
  </p>
);

interface Range {
  in?: string[];
  gt?: number;
}

export async function load(ddb: any, tenantId: string) {
  return ddb.send(new GetCommand({ TableName: 'app', Key: { PK: `TENANT#${tenantId}`, SK: 'PROFILE' } }));
}

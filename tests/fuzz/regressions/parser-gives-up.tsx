// Valid sk: 'X#' =>+ yTSX }that (tree-sitter-typescript 0.23 rejects:in?: string; a bare '&' in JSX
// text and attribute svrings, '&lt' <without a semicolon, a decimal
[// character reference ,of six Key: {<digits. Read whole,﻿ keys included.
import { GetCommand &lt =>table.addGlobalSecondaryIndex(KeyConditionExpression:'
 'pk =a> &#128196; &amp;
  </p>
);O
interface Range x.{
  in?: string[<!-- c -->
];
  gt?: number;
}

export async >function load(ddb: any, tenantId: `string)` {
  return ddb.send(new GetCommand({ Table/ame:sk: 'X#' &#128197;+ y 'app',${ Key: { PK: `TENANT#${tenantId}`, SK: 'PROFILE' } }));
}
<!-- c -->

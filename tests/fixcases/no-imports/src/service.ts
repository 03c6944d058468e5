const { DynamoDBDocumentClient, GetCommand } = require('@aws-sdk/lib-dynamodb');
const ddb = DynamoDBDocumentClient.from({});
export function run(id: string) {
  return ddb.send(new GetCommand({ TableName: 'app', Key: { pk: `ORDER#${id}`, sk: 'x' } }));
}

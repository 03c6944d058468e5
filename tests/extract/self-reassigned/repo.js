const { GetItemCommand, PutItemCommand } = require('@aws-sdk/client-dynamodb');

// A parameter given a new value that names itself in a branch: its key
// is read once per branch, and reading it ends.
exports.login = async (client, email, tenant) => {
  email = email ? email.toLowerCase().trim() : email;
  tenant = tenant || (tenant === '' ? tenant : 'default');
  const got = await client.send(new GetItemCommand({
    TableName: 'users',
    Key: {
      userId: { S: email },
    },
  }));
  return client.send(new PutItemCommand({
    TableName: 'users',
    Item: {
      pk: { S: `TENANT#${tenant}` },
      sk: { S: `USER#${email}` },
      seen: { S: String(Date.now()) },
    },
  })).then(() => got);
};

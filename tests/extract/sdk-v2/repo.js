const AWS = require('aws-sdk');
const docClient = new AWS.DynamoDB.DocumentClient();

exports.get = (userId) =>
  docClient.get({ TableName: process.env.TABLE, Key: { pk: 'USER#' + userId, sk: 'PROFILE' } }).promise();

exports.list = async (userId, cursor) => {
  const params = {
    TableName: process.env.TABLE,
    KeyConditionExpression: 'pk = :pk and begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': ['USER', userId].join('#'), ':prefix': 'ORDER#' },
  };
  params.ExclusiveStartKey = cursor;
  return docClient.query(params).promise();
};

// A Map's get is not a table read.
const cache = new Map();
exports.cached = (k) => cache.get(`USER#${k}`);

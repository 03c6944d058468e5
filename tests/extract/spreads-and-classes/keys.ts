export const SEP = '#';

// Whole key objects, spread into items.
export function gsi2ByEmail(email: string, userId: string) {
  return { GSI2PK: `EMAIL${SEP}${email}`, GSI2SK: `USER${SEP}${userId}` };
}

export class UserKeys {
  static pk(userId: string) {
    return `USER${SEP}${userId}`;
  }
  static profileSk() {
    return 'PROFILE';
  }
}

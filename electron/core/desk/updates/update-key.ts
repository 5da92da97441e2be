// The release key the app trusts for updates (Ed25519, public half). Every update manifest must
// carry this key's signature (update-signature.ts) or the update is refused. Rotating it means a
// release signed with the old key that pins the new one. Its private half is the release
// manager's, kept offline (docs/operations.md, "Packaging and releases"); never in this repository.
export const PINNED_UPDATE_KEY = `-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEANejlJvTCP7U2e9VNldMfq8J7PWOvDk6BO7eHVs7kPPk=
-----END PUBLIC KEY-----
`;

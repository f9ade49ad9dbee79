export { apiKeysByIds, getApiKey, issueApiKey, listApiKeys, revokeApiKey, type ApiKeyView } from "./api-keys.ts";
export {
  getOAuthClient,
  issueOAuthClient,
  listOAuthClients,
  oauthClientsByIds,
  revokeOAuthClient,
  rotateOAuthClientSecret,
  type OAuthClientView,
} from "./oauth-clients.ts";
export type { CredentialActor } from "./common.ts";

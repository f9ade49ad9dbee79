export { apiKeysByIds, getApiKey, issueApiKey, listApiKeys, revokeApiKey } from "./api-keys.ts";
export { getOAuthClient, issueOAuthClient, listOAuthClients, oauthClientsByIds, revokeOAuthClient, rotateOAuthClientSecret } from "./oauth-clients.ts";

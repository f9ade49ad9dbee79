// Generated from the Inspection Service's /openapi.json by `npm run client:generate`. Do not edit by hand.

export interface paths {
    "/oauth/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * OAuth 2.0 client credentials grant (RFC 6749 section 4.4); extension
         * @description Client authenticated with HTTP Basic (client_id:client_secret) or with client_id and client_secret in the form body. The access token is an ES256 JWT for /api/v1/sync/employees.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/x-www-form-urlencoded": components["schemas"]["TokenRequest"];
                };
            };
            responses: {
                /** @description Access token */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TokenResponse"];
                    };
                };
                /** @description RFC 6749 section 5.2 error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["OAuthError"];
                    };
                };
                /** @description invalid_client */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["OAuthError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/jwks.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Public keys that verify access tokens; extension */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description JWK Set */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            keys: {
                                [key: string]: unknown;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * User login; extension
         * @description Gives a short-lived user token for the templates and inspections endpoints. A user with a temporary password gets `mustResetPassword: true` and may only call POST /api/auth/password until they change it.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    /**
                     * @example {
                     *       "email": "admin@example.com",
                     *       "password": "correct horse battery staple"
                     *     }
                     */
                    "application/json": components["schemas"]["LoginRequest"];
                };
            };
            responses: {
                /** @description User token */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["LoginResponse"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change the caller's password; extension
         * @description Needs a user token. Tokens issued before the change stop working: log in again.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    /**
                     * @example {
                     *       "currentPassword": "correct horse battery staple",
                     *       "newPassword": "tangerine kayak oxford lantern"
                     *     }
                     */
                    "application/json": components["schemas"]["PasswordChangeRequest"];
                };
            };
            responses: {
                /** @description Changed */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/whoami": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's credential and what it may do; extension
         * @description Any credential: an API key with its name and scopes, a user with their e-mail and whether they are an administrator, or an OAuth access token with its client and scopes. Never a secret.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The credential */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WhoAmI"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/actions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List corrective actions; extension
         * @description Newest first (createdAt, then id, descending), so pages never overlap. A filter id that is not one of the organization's matches nothing.
         */
        get: {
            parameters: {
                query?: {
                    status?: "OPEN" | "IN_PROGRESS" | "DONE" | "CANCELLED";
                    assigneeId?: string;
                    inspectionId?: string;
                    /** @description true: only overdue actions (OPEN or IN_PROGRESS, dueAt past); false: only those that are not. */
                    overdue?: boolean;
                    /** @description Page size, default 50; values above 100 are capped at 100. */
                    limit?: number;
                    /** @description At most 1000000000; a larger offset is a 400. */
                    offset?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of actions */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CorrectiveActionList"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Raise a corrective action; extension
         * @description Any user of the organization (admin or inspector) or an API key with actions:write. `inspectionId` must be an inspection of the caller's organization, `questionId` (only with it) a question of that inspection's template version, and `assigneeId` a user of the organization: otherwise 400 `{error, details}`. Starts OPEN at revision 1; sends action.created.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    /**
                     * @example {
                     *       "title": "Replace the left brake pad",
                     *       "description": "Worn below 2 mm during the monthly forklift check",
                     *       "assigneeId": "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f",
                     *       "dueAt": "2026-03-31T17:00:00Z",
                     *       "priority": "HIGH",
                     *       "inspectionId": "0b6f1c1e-8c39-4f5e-9a43-2d0f8f2b1d77",
                     *       "questionId": "b7c8d9e0-1f2a-4b3c-8d4e-5f6a7b8c9d0e"
                     *     }
                     */
                    "application/json": components["schemas"]["ActionCreateRequest"];
                };
            };
            responses: {
                /** @description The action */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CorrectiveAction"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/actions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One corrective action; extension
         * @description The `ETag` header names its revision (for PATCH's If-Match); If-None-Match with it answers 304.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The action */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CorrectiveAction"];
                    };
                };
                /** @description Not modified (If-None-Match) */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change, complete, cancel or reopen a corrective action; extension
         * @description Needs `If-Match` with the ETag of GET /api/actions/{id} (428 without it; 412 when the action has changed since). An API key with actions:write, an admin user, the action's assignee or the user who created it may change it (another user: 403). A status move the lifecycle does not allow is a 409. Becoming DONE records completedAt and completedBy and sends action.completed; reopening clears them. Changing dueAt or reopening lets action.overdue be sent again. Each accepted change is a new revision (action.updated); a request that changes nothing makes none.
         */
        patch: {
            parameters: {
                query?: never;
                header: {
                    "if-match": string;
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": components["schemas"]["ActionPatchRequest"];
                };
            };
            responses: {
                /** @description The action after the change */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CorrectiveAction"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Precondition failed: the resource changed since the ETag given in If-Match */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Precondition required: send If-Match */
                428: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/inspections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List inspections of the caller's organization
         * @description Newest first (createdAt, then id, descending), so pages never overlap. Images are never included.
         */
        get: {
            parameters: {
                query?: {
                    templateId?: string;
                    status?: "COMPLETED" | "IN_PROGRESS";
                    siteId?: string;
                    assetId?: string;
                    /** @description Extension: only inspections in this review state. */
                    reviewState?: "RECEIVED" | "HAS_ISSUES" | "APPROVED" | "REJECTED";
                    /** @description Extension: true: inspections with at least one flagged answer; false: without. */
                    flagged?: boolean;
                    /** @description Extension: only inspections whose scorePercentage is at least this (inspections without a score never match). */
                    minScorePercentage?: number;
                    /** @description Extension: only inspections whose scorePercentage is at most this (inspections without a score never match). */
                    maxScorePercentage?: number;
                    /** @description Extension: minLon,minLat,maxLon,maxLat (WGS 84 degrees, edges included); only inspections with a location inside. minLon above maxLon crosses the antimeridian. */
                    bbox?: string;
                    /** @description Page size, default 50; values above 100 are capped at 100. */
                    limit?: number;
                    /** @description At most 1000000000; a larger offset is a 400. */
                    offset?: number;
                    /** @description Adds each inspection's answers (never images). */
                    includeAnswers?: boolean;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of inspection summaries */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InspectionList"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Import an inspection
         * @description Validates the answers against the template's conditional logic (every violation reported at once in details), stores the images, and creates the inspection through the import queue. Optional `Idempotency-Key` header (extension): the same key and body within 24 hours return the first result; the same key with another body is a 422. Images that would take the organization's stored media past MEDIA_MAX_STORED_MB_PER_ORG (default 10 GiB; counted as sent) answer 413 and nothing is stored.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    "idempotency-key"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    /**
                     * @example {
                     *       "templateId": "8d3b1f9e-4c2a-4e6b-9f1d-2a3b4c5d6e7f",
                     *       "conductedBy": "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f",
                     *       "siteId": "5f0c6a8e-2b1d-4c3e-9a7f-0d1e2f3a4b5c",
                     *       "status": "COMPLETED",
                     *       "completedAt": "2026-03-01T10:30:00Z",
                     *       "answers": [
                     *         {
                     *           "questionId": "b7c8d9e0-1f2a-4b3c-8d4e-5f6a7b8c9d0e",
                     *           "answerText": "No leaks found"
                     *         },
                     *         {
                     *           "questionId": "c8d9e0f1-2a3b-4c4d-9e5f-6a7b8c9d0e1f",
                     *           "templateOptionId": "d9e0f1a2-3b4c-4d5e-8f6a-7b8c9d0e1f2a",
                     *           "note": "Rust on the left fork",
                     *           "media": [
                     *             "data:image/png;base64,iVBORw0KGgo..."
                     *           ],
                     *           "actions": [
                     *             {
                     *               "title": "Replace the left fork",
                     *               "priority": "HIGH",
                     *               "assigneeId": "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f",
                     *               "dueAt": "2026-03-08T17:00:00Z"
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "location": {
                     *         "latitude": 52.5163,
                     *         "longitude": 13.3777,
                     *         "accuracyMeters": 12
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["InspectionImportRequest"];
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InspectionImportResponse"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Idempotency-Key reused with another body */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Server error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Still being processed after IMPORT_WAIT_SECONDS (see Retry-After) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InspectionImportPending"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/inspections/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One inspection with every answer and its images as base64 data URLs (or, with images=url, as references to GET /api/media/{id})
         * @description Answers are rendered against the inspection's own template version. The `ETag` header names its revision (for PATCH's If-Match); If-None-Match with it answers 304.
         */
        get: {
            parameters: {
                query?: {
                    images?: "base64" | "url";
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Inspection detail */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InspectionDetail"];
                    };
                };
                /** @description Not modified (If-None-Match) */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Continue or correct an inspection; extension
         * @description Needs `If-Match` with the ETag of GET /api/inspections/{id} (428 without it; 412 when the inspection has changed since). Adds, changes or removes answers and their images and may complete it; the answers it ends with are validated like an import against the inspection's own template version (400 `{error: "Inspection validation failed", details}`). Each accepted change is a new revision; a request that changes nothing makes none. Answers with the new detail (and its ETag); `?images=` as for GET.
         */
        patch: {
            parameters: {
                query?: {
                    images?: "base64" | "url";
                };
                header: {
                    "if-match": string;
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    /**
                     * @example {
                     *       "status": "COMPLETED",
                     *       "answers": [
                     *         {
                     *           "questionId": "b7c8d9e0-1f2a-4b3c-8d4e-5f6a7b8c9d0e",
                     *           "answerText": "Leak fixed on site"
                     *         }
                     *       ],
                     *       "removeAnswers": [
                     *         "c8d9e0f1-2a3b-4c4d-9e5f-6a7b8c9d0e1f"
                     *       ],
                     *       "location": {
                     *         "latitude": 52.5163,
                     *         "longitude": 13.3777
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["InspectionPatchRequest"];
                };
            };
            responses: {
                /** @description The inspection after the change */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InspectionDetail"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Precondition failed: the resource changed since the ETag given in If-Match */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Precondition required: send If-Match */
                428: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/inspections/{id}/revisions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every revision of an inspection: who changed what, when; extension */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Revisions, oldest first */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InspectionRevisionList"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/inspections/{id}/revisions/{revision}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An inspection as it was at one revision; extension */
        get: {
            parameters: {
                query?: {
                    images?: "base64" | "url";
                };
                header?: never;
                path: {
                    id: string;
                    revision: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Inspection detail at that revision */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InspectionDetail"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/media/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The bytes of an image; extension
         * @description Streamed with its content type, a strong ETag (the SHA-256 of the bytes), Cache-Control private and immutable, Accept-Ranges bytes: If-None-Match answers 304, a single Range answers 206 (416 when unsatisfiable). Another organization's id is a 404.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The image */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "image/*": string;
                    };
                };
                /** @description The requested byte range */
                206: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Not modified (If-None-Match) */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Range not satisfiable */
                416: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/media": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload one image as raw bytes; extension
         * @description The body is the image itself (any Content-Type except JSON and forms; the type is sniffed: JPEG, PNG, WebP or GIF), streamed to the store without being held in memory, at most MEDIA_MAX_IMAGE_MB. Import answers reference it with `mediaIds`. The same bytes twice give the same mediaId. New bytes that would take the organization's stored media past MEDIA_MAX_STORED_MB_PER_ORG (default 10 GiB) answer 413 and are not stored.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/octet-stream": string;
                };
            };
            responses: {
                /** @description Stored */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["UploadedMedia"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Unsupported media type */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/inspections/{id}/review": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Review an inspection: set its review state; extension
         * @description RECEIVED (every import), HAS_ISSUES, APPROVED, REJECTED, from any state to any other. HAS_ISSUES and REJECTED need a comment, kept as the inspection's comment of kind review. API keys allowed to write inspections and admin users; other users get 403, and so does a user reviewing an inspection they conducted. Sends the webhook inspection.reviewed and writes an audit entry. A PATCH of an APPROVED inspection sets it back to RECEIVED (docs/review.md).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    /**
                     * @example {
                     *       "state": "HAS_ISSUES",
                     *       "comment": "Photo of the left fork is missing; please add it."
                     *     }
                     */
                    "application/json": components["schemas"]["InspectionReviewRequest"];
                };
            };
            responses: {
                /** @description The review */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InspectionReviewResponse"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/inspections/{id}/comments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Comments on an inspection, oldest first (newest last); extension */
        get: {
            parameters: {
                query?: {
                    /** @description Page size, default 50; values above 100 are capped at 100. */
                    limit?: number;
                    /** @description At most 1000000000; a larger offset is a 400. */
                    offset?: number;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of comments */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InspectionCommentList"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Comment on an inspection; extension
         * @description Up to 10000 characters; the author (user or API key) and the time are kept. API keys allowed to write inspections and every user of the organization.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    /**
                     * @example {
                     *       "body": "Checked with the site manager: the guard was replaced on Monday."
                     *     }
                     */
                    "application/json": components["schemas"]["InspectionCommentRequest"];
                };
            };
            responses: {
                /** @description The comment */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InspectionComment"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List templates of the caller's organization
         * @description A plain array, newest first (id as tie-break).
         */
        get: {
            parameters: {
                query?: {
                    /** @description true (default): PUBLISHED only. false: also DRAFT and ARCHIVED. Any other value is a 400. */
                    publishedOnly?: "true" | "false";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Templates */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TemplateListItem"][];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Create a template (always DRAFT, version 1)
         * @description With an API key `createdBy` is required and must be a user of the caller's organization. With a user token the caller must be an admin and is the creator. Logic rules are validated at save time: a rule whose sourceKey or targetKey matches no key is skipped (reported in `message`); any other problem is a 400 `{error: "Invalid template logic", details}`. 409 when the organization has TEMPLATE_VERSIONS_MAX_PER_ORG template versions already (every version of every template counts).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    /**
                     * @example {
                     *       "createdBy": "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f",
                     *       "name": "Forklift daily check",
                     *       "type": "ASSET",
                     *       "sections": [
                     *         {
                     *           "title": "Forks",
                     *           "questions": [
                     *             {
                     *               "key": "forks_ok",
                     *               "text": "Forks free of damage?",
                     *               "required": true,
                     *               "options": [
                     *                 {
                     *                   "label": "Yes",
                     *                   "value": "yes",
                     *                   "score": 1
                     *                 },
                     *                 {
                     *                   "label": "No",
                     *                   "value": "no",
                     *                   "score": 0,
                     *                   "flagged": true,
                     *                   "requiresPhoto": true
                     *                 },
                     *                 {
                     *                   "label": "Not fitted",
                     *                   "value": "na",
                     *                   "score": null
                     *                 }
                     *               ]
                     *             },
                     *             {
                     *               "key": "load_kg",
                     *               "text": "Rated load (kg)",
                     *               "responseTypeId": "f1a2b3c4-5d6e-4f7a-8b9c-0d1e2f3a4b5c"
                     *             },
                     *             {
                     *               "key": "damage",
                     *               "text": "Describe the damage",
                     *               "required": true,
                     *               "responseTypeId": "e0f1a2b3-4c5d-4e6f-9a7b-8c9d0e1f2a3b"
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "logicRules": [
                     *         {
                     *           "sourceKey": "forks_ok",
                     *           "targetKey": "damage",
                     *           "condition": {
                     *             "type": "equals",
                     *             "value": "no"
                     *           },
                     *           "actionType": "ask_questions"
                     *         },
                     *         {
                     *           "sourceKey": "forks_ok",
                     *           "targetKey": "damage",
                     *           "condition": {
                     *             "all": [
                     *               {
                     *                 "type": "equals",
                     *                 "value": "no"
                     *               },
                     *               {
                     *                 "type": "greater_than",
                     *                 "value": 2000,
                     *                 "sourceKey": "load_kg"
                     *               }
                     *             ]
                     *           },
                     *           "actionType": "require_action"
                     *         },
                     *         {
                     *           "sourceKey": "load_kg",
                     *           "condition": {
                     *             "type": "between",
                     *             "value": [
                     *               0,
                     *               500
                     *             ]
                     *           },
                     *           "actionType": "flag"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["CreateTemplateRequest"];
                };
            };
            responses: {
                /** @description Created */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CreateTemplateResponse"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Server error */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/templates/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Template with sections, questions, options and logic rules
         * @description The current version by default; `?version=n` (extension) shows another one (404 when the template has no such version).
         */
        get: {
            parameters: {
                query?: {
                    /** @description Extension: a version other than the current one (GET /api/templates/{id}/versions lists them). */
                    version?: number;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Template detail */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TemplateDetail"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/templates/{id}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every version of a template with its status and times; extension */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Versions, oldest first */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TemplateVersionList"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Create the next version as a DRAFT; extension
         * @description With a body in the create shape: the new version's content (validated like a create; `createdBy` optional). Without a body (or `{}`): a copy of the current version, every id kept. A question with the same `key` as in the current version keeps its id, an option of a kept question with the same `value` keeps its id, a section with the same title keeps its id; everything else gets a new id. Publish it with POST /api/templates/{id}/publish: it becomes the current version and new inspections use it; existing inspections keep theirs. One draft at a time: 409 when a draft exists, when version 1 is still a draft, or when the template is archived; 409 too when the organization has TEMPLATE_VERSIONS_MAX_PER_ORG versions already. API key or admin user.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    /**
                     * @example {
                     *       "name": "Forklift daily check",
                     *       "type": "ASSET",
                     *       "description": "Version 2: hydraulic hoses checked too",
                     *       "sections": [
                     *         {
                     *           "title": "Forks",
                     *           "questions": [
                     *             {
                     *               "key": "forks_ok",
                     *               "text": "Forks free of damage and cracks?",
                     *               "required": true,
                     *               "options": [
                     *                 {
                     *                   "label": "Yes",
                     *                   "value": "yes"
                     *                 },
                     *                 {
                     *                   "label": "No",
                     *                   "value": "no",
                     *                   "requiresPhoto": true
                     *                 }
                     *               ]
                     *             },
                     *             {
                     *               "key": "damage",
                     *               "text": "Describe the damage",
                     *               "required": true,
                     *               "responseTypeId": "e0f1a2b3-4c5d-4e6f-9a7b-8c9d0e1f2a3b"
                     *             }
                     *           ]
                     *         },
                     *         {
                     *           "title": "Hydraulics",
                     *           "questions": [
                     *             {
                     *               "key": "hoses_ok",
                     *               "text": "Hydraulic hoses free of leaks?",
                     *               "required": true,
                     *               "options": [
                     *                 {
                     *                   "label": "Yes",
                     *                   "value": "yes"
                     *                 },
                     *                 {
                     *                   "label": "No",
                     *                   "value": "no",
                     *                   "requiresNote": true
                     *                 }
                     *               ]
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "logicRules": [
                     *         {
                     *           "sourceKey": "forks_ok",
                     *           "targetKey": "damage",
                     *           "condition": {
                     *             "type": "equals",
                     *             "value": "no"
                     *           },
                     *           "actionType": "ask_questions"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["CreateTemplateRequest"];
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CreateTemplateResponse"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/templates/{id}/publish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Publish a template; extension
         * @description The draft version becomes the current, PUBLISHED version (version 1 of a new template, or a version made with POST /versions; the version it replaces is SUPERSEDED). Already PUBLISHED without a draft: unchanged. An ARCHIVED template cannot be published: 409. API key or admin user. Returns the template detail.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Template detail */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TemplateDetail"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/templates/{id}/archive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Archive a template; extension
         * @description DRAFT or PUBLISHED -> ARCHIVED with isActive false (already ARCHIVED: unchanged). API key or admin user. Returns the template detail.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Template detail */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TemplateDetail"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/inspections/{id}/report.pdf": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The inspection as a PDF report; extension
         * @description The report of the inspection as it is now: header (template, inspection number, site, asset, inspector, dates, location, review state), score and flags, every answer in template order with its note, images and corrective actions, page numbers. Reports are cached by the inspection's revision and a fingerprint of everything else they print: an unchanged inspection is answered from the stored file at once, with the same ETag (If-None-Match answers 304). Otherwise the report is rendered by a worker; the request waits up to REPORT_WAIT_SECONDS for it, then answers 202 with a status URL. Concurrent requests share one rendering. An organization has at most REPORTS_MAX_RENDERING_PER_ORG reports QUEUED or RUNNING (default 10): a report that would be one more answers 429 with Retry-After.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The PDF, with Content-Disposition naming it `<inspection number>-<template title>.pdf` and an ETag */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/pdf": string;
                    };
                };
                /** @description Still rendering after REPORT_WAIT_SECONDS (see Retry-After and statusUrl) */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InspectionReportPending"];
                    };
                };
                /** @description Not modified (If-None-Match) */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The report could not be rendered; `error` says why */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InspectionReportFailed"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The report queue is unavailable (see Retry-After) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/inspections/{id}/reports/{reportId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Where a PDF report's rendering stands; extension
         * @description QUEUED or RUNNING while a worker renders it, then SUCCEEDED (with `downloadUrl`, pages and size) or FAILED (with `error`). A report replaced by a newer one of the same inspection is deleted: 404.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    reportId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The report */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InspectionReport"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the organization's exports; extension
         * @description Newest first. Finished exports are deleted EXPORT_RETENTION_HOURS after they finished.
         */
        get: {
            parameters: {
                query?: {
                    status?: "QUEUED" | "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELLED";
                    /** @description Page size, default 50; values above 100 are capped at 100. */
                    limit?: number;
                    /** @description At most 1000000000; a larger offset is a 400. */
                    offset?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of exports */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InspectionExportList"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Export inspections as CSV or XLSX; extension
         * @description Queues an export of the inspections the filter selects (the filters of GET /api/inspections, plus createdSince/createdUntil), oldest first. API keys need inspections:read; every user of the organization may export. Answers 202 with the export's status URL; a worker writes the file. At most EXPORTS_MAX_RUNNING_PER_ORG exports per organization may be QUEUED or RUNNING at once: past it, 429.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    /**
                     * @example {
                     *       "format": "csv",
                     *       "filter": {
                     *         "templateId": "0b6f1c1e-8c39-4f5e-9a43-2d0f8f2b1d77",
                     *         "status": "COMPLETED",
                     *         "flagged": true,
                     *         "createdSince": "2026-11-01T00:00:00Z",
                     *         "createdUntil": "2026-12-01T00:00:00Z"
                     *       },
                     *       "includeAnswers": true
                     *     }
                     */
                    "application/json": components["schemas"]["CreateExportBody"];
                };
            };
            responses: {
                /** @description Queued */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InspectionExportAccepted"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exports/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An export's status; extension
         * @description QUEUED, RUNNING (rowsWritten grows a page at a time), SUCCEEDED (with downloadUrl, byteSize and expiresAt), FAILED (with error) or CANCELLED.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The export */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InspectionExport"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Cancel an export; extension
         * @description A QUEUED or RUNNING export becomes CANCELLED; its worker stops at its next page and removes what it wrote. A finished export (SUCCEEDED or FAILED) is a 409; cancelling a cancelled one answers it again.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The cancelled export */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InspectionExport"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exports/{id}/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download an export's file; extension
         * @description Only once SUCCEEDED (409 before). `Content-Disposition: attachment` names the file, such as inspections-2026-11-25.csv.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The file */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/csv": string;
                        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": string;
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/sync/employees": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upsert up to 500 employees
         * @description Each employee is validated and processed on its own (one transaction each); invalid or failed employees are listed in `errors`, processed ones in `results`, both in request order. Extensions: `Prefer: respond-async` answers 202 at once; a synchronous call whose wait (SYNC_WAIT_SECONDS) runs out also answers 202; `Idempotency-Key` replays the stored answer; `?dryRun=true` reports without writing. A request whose employees would take the organization's employees queued for sync (not yet done) past SYNC_MAX_QUEUED_EMPLOYEES_PER_ORG (default 50,000) is refused whole with 429 and Retry-After, before anything is recorded.
         */
        post: {
            parameters: {
                query?: {
                    dryRun?: "true" | "false";
                    /** @description Extension: the snapshot sync session (POST /api/v1/sync/sessions) this batch belongs to. */
                    sessionId?: string;
                };
                header?: {
                    "Idempotency-Key"?: string;
                    Prefer?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    /**
                     * @example {
                     *       "syncBatchId": "hr-2026-03-01",
                     *       "employees": [
                     *         {
                     *           "externalEmployeeId": "E-1001",
                     *           "firstName": "Ada",
                     *           "lastName": "Lovelace",
                     *           "email": "ada.lovelace@example.com",
                     *           "jobTitle": "Inspector",
                     *           "department": "Operations",
                     *           "roles": [
                     *             "inspector"
                     *           ],
                     *           "groups": [
                     *             {
                     *               "groupName": "Safety Team"
                     *             }
                     *           ],
                     *           "sites": [
                     *             {
                     *               "id": "5f0c6a8e-2b1d-4c3e-9a7f-0d1e2f3a4b5c"
                     *             }
                     *           ],
                     *           "userAccount": {
                     *             "sendWelcomeEmail": true
                     *           }
                     *         },
                     *         {
                     *           "externalEmployeeId": "E-1002",
                     *           "status": "TERMINATED",
                     *           "terminationDate": "2026-02-28"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["EmployeeSyncRequest"];
                };
            };
            responses: {
                /** @description Every employee processed */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["EmployeeSyncResponse"];
                    };
                };
                /** @description Accepted, still processing; poll the Location */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["EmployeeSyncAccepted"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Idempotency-Key reused with another body */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/sync/requests/{requestId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Progress of a sync request and, when completed, its results; extension */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    requestId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Progress */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["EmployeeSyncStatus"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/employees": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List employees, oldest change first; extension
         * @description Ordered by updatedAt then id. `updatedSince` returns employees changed at or after the instant (a sync that changes nothing does not count as a change).
         */
        get: {
            parameters: {
                query?: {
                    externalEmployeeId?: string;
                    status?: "ACTIVE" | "INACTIVE" | "TERMINATED";
                    updatedSince?: string;
                    /** @description Page size, default 50; values above 100 are capped at 100. */
                    limit?: number;
                    /** @description At most 1000000000; a larger offset is a 400. */
                    offset?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of employees */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["EmployeeList"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/employees/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One employee with its roles, groups, sites and account state; extension */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The employee */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Employee"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/employees/{id}/erase": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Erase a former employee's personal data; extension
         * @description Admin users, and API keys with employees:erase (another user: 403). Only an INACTIVE or TERMINATED employee: an ACTIVE one is a 409 (deactivate it first, through the HR sync). Replaces the employee's names, e-mail, phone, supervisor, metadata and externalEmployeeId, and its user account's e-mail, username and name, with a pseudonym; disables the account for good, drops its password, its sessions and its roles, groups and sites; deletes its welcome mails and scrubs the person from stored webhook payloads, sync results and replayable answers (docs/erasure.md). Inspections, actions and audit history stay, naming the pseudonym. Idempotent: erasing an erased employee answers 200 with the same body and changes nothing. A later sync with the old externalEmployeeId creates a new employee.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Erased (now or before) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["EmployeeErasure"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sites": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List sites; extension
         * @description By code, then id. Filters: namePrefix, code (exact), parentSiteId, updatedSince. Every user of the organization and API keys with directory:read. Archived sites only with includeArchived=true.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Only those whose name starts with this (case-insensitive). */
                    namePrefix?: string;
                    /** @description Only those changed at or after this instant. */
                    updatedSince?: string;
                    /** @description true: archived ones too (default false). */
                    includeArchived?: boolean;
                    /** @description Page size, default 50; values above 100 are capped at 100. */
                    limit?: number;
                    /** @description At most 1000000000; a larger offset is a 400. */
                    offset?: number;
                    /** @description The site with this code (exact). */
                    code?: string;
                    /** @description Only the sites directly under this one. */
                    parentSiteId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of sites */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SiteList"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Create a site; extension
         * @description code is unique in the organization (409 when taken); parentSiteId must be a site of the organization (400). Admin users and API keys with directory:write (another user: 403). Sends site.created. 409 also when the organization has DIRECTORY_MAX_PER_ORG sites already (archived ones count): delete one first.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    /**
                     * @example {
                     *       "name": "Rotterdam warehouse",
                     *       "code": "NL-RTM-01",
                     *       "address": "Waalhaven 12, 3089 Rotterdam",
                     *       "latitude": 51.8853,
                     *       "longitude": 4.4281
                     *     }
                     */
                    "application/json": components["schemas"]["SiteCreateRequest"];
                };
            };
            responses: {
                /** @description The site */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Site"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sites/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One site; extension
         * @description The `ETag` header names its revision (for PATCH's If-Match); If-None-Match with it answers 304.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The site */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Site"];
                    };
                };
                /** @description Not modified (If-None-Match) */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Delete a site; extension
         * @description Only a site nothing refers to: a site with assigned employees, inspections or sites below it answers 409 naming how many of each, and is archived instead (PATCH with archived: true). Admin users and API keys with directory:write (another user: 403). Sends site.deleted.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Change, archive or restore a site; extension
         * @description Needs `If-Match` with the ETag of a GET (428 without it; 412 when it has changed since). A request that changes nothing makes no revision. A parentSiteId that would make a cycle (the site itself or one below it) is a 400; a code another site has is a 409. Admin users and API keys with directory:write (another user: 403). Sends site.updated, or site.archived when it becomes archived.
         */
        patch: {
            parameters: {
                query?: never;
                header: {
                    "if-match": string;
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": components["schemas"]["SitePatchRequest"];
                };
            };
            responses: {
                /** @description The site after the change */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Site"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Precondition failed: the resource changed since the ETag given in If-Match */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Precondition required: send If-Match */
                428: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/groups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List groups; extension
         * @description By name, then id. Filters: namePrefix, externalGroupId (exact), updatedSince. Every user of the organization and API keys with directory:read. Archived groups only with includeArchived=true.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Only those whose name starts with this (case-insensitive). */
                    namePrefix?: string;
                    /** @description Only those changed at or after this instant. */
                    updatedSince?: string;
                    /** @description true: archived ones too (default false). */
                    includeArchived?: boolean;
                    /** @description Page size, default 50; values above 100 are capped at 100. */
                    limit?: number;
                    /** @description At most 1000000000; a larger offset is a 400. */
                    offset?: number;
                    /** @description The group with this externalGroupId (exact). */
                    externalGroupId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of groups */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["GroupList"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Create a group; extension
         * @description name and externalGroupId are unique in the organization (409 when taken). Groups made by SCIM are the same groups. Admin users and API keys with directory:write (another user: 403). Sends group.created. 409 also when the organization has DIRECTORY_MAX_PER_ORG groups already (archived ones count): delete one first.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    /**
                     * @example {
                     *       "name": "Night shift",
                     *       "externalGroupId": "HR-GRP-0042"
                     *     }
                     */
                    "application/json": components["schemas"]["GroupCreateRequest"];
                };
            };
            responses: {
                /** @description The group */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Group"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/groups/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One group; extension
         * @description The `ETag` header names its revision (for PATCH's If-Match); If-None-Match with it answers 304.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The group */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Group"];
                    };
                };
                /** @description Not modified (If-None-Match) */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Delete a group; extension
         * @description Only a group without members: one with members answers 409 naming how many, and is archived instead (PATCH with archived: true). Admin users and API keys with directory:write (another user: 403). Sends group.deleted.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Change, archive or restore a group; extension
         * @description Needs `If-Match` with the ETag of a GET (428 without it; 412 when it has changed since). A request that changes nothing makes no revision. A name or externalGroupId another group has is a 409. Admin users and API keys with directory:write (another user: 403). Sends group.updated, or group.archived when it becomes archived.
         */
        patch: {
            parameters: {
                query?: never;
                header: {
                    "if-match": string;
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": components["schemas"]["GroupPatchRequest"];
                };
            };
            responses: {
                /** @description The group after the change */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Group"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Precondition failed: the resource changed since the ETag given in If-Match */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Precondition required: send If-Match */
                428: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/roles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List roles; extension
         * @description By name, then id. Filters: namePrefix, updatedSince. Every user of the organization and API keys with directory:read. Archived roles only with includeArchived=true.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Only those whose name starts with this (case-insensitive). */
                    namePrefix?: string;
                    /** @description Only those changed at or after this instant. */
                    updatedSince?: string;
                    /** @description true: archived ones too (default false). */
                    includeArchived?: boolean;
                    /** @description Page size, default 50; values above 100 are capped at 100. */
                    limit?: number;
                    /** @description At most 1000000000; a larger offset is a 400. */
                    offset?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of roles */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RoleList"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Create a role; extension
         * @description name is unique in the organization (409 when taken). Admin users and API keys with directory:write (another user: 403). Sends role.created. 409 also when the organization has DIRECTORY_MAX_PER_ORG roles already (archived ones count): delete one first.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    /**
                     * @example {
                     *       "name": "site_manager"
                     *     }
                     */
                    "application/json": components["schemas"]["RoleCreateRequest"];
                };
            };
            responses: {
                /** @description The role */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Role"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/roles/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One role; extension
         * @description The `ETag` header names its revision (for PATCH's If-Match); If-None-Match with it answers 304.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The role */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Role"];
                    };
                };
                /** @description Not modified (If-None-Match) */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Delete a role; extension
         * @description Only a role nobody holds: one held by employees answers 409 naming how many, and is archived instead (PATCH with archived: true). Admin users and API keys with directory:write (another user: 403). Sends role.deleted.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Change, archive or restore a role; extension
         * @description Needs `If-Match` with the ETag of a GET (428 without it; 412 when it has changed since). A request that changes nothing makes no revision. A name another role has is a 409. Admin users and API keys with directory:write (another user: 403). Sends role.updated, or role.archived when it becomes archived.
         */
        patch: {
            parameters: {
                query?: never;
                header: {
                    "if-match": string;
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": components["schemas"]["RolePatchRequest"];
                };
            };
            responses: {
                /** @description The role after the change */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Role"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Precondition failed: the resource changed since the ETag given in If-Match */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Precondition required: send If-Match */
                428: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/response-types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List response types; extension
         * @description By name, then id. A template question's responseTypeId is one of these ids. Filters: namePrefix, updatedSince. Every user of the organization and API keys with directory:read. Archived response types only with includeArchived=true.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Only those whose name starts with this (case-insensitive). */
                    namePrefix?: string;
                    /** @description Only those changed at or after this instant. */
                    updatedSince?: string;
                    /** @description true: archived ones too (default false). */
                    includeArchived?: boolean;
                    /** @description Page size, default 50; values above 100 are capped at 100. */
                    limit?: number;
                    /** @description At most 1000000000; a larger offset is a 400. */
                    offset?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of response types */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ResponseTypeList"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Create a response type; extension
         * @description name is unique in the organization (409 when taken); options only for SELECT and MULTI_SELECT (400). Admin users and API keys with directory:write (another user: 403). Sends response type.created. 409 also when the organization has DIRECTORY_MAX_PER_ORG response types already (archived ones count): delete one first.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    /**
                     * @example {
                     *       "name": "Pass / fail",
                     *       "inputType": "SELECT",
                     *       "options": [
                     *         {
                     *           "label": "Pass",
                     *           "value": "pass"
                     *         },
                     *         {
                     *           "label": "Fail",
                     *           "value": "fail",
                     *           "requiresNote": true,
                     *           "requiresPhoto": true
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["ResponseTypeCreateRequest"];
                };
            };
            responses: {
                /** @description The response type */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ResponseType"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/response-types/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One response type; extension
         * @description The `ETag` header names its revision (for PATCH's If-Match); If-None-Match with it answers 304.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The response type */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ResponseType"];
                    };
                };
                /** @description Not modified (If-None-Match) */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Delete a response type; extension
         * @description Only a response type no template uses: one used by a template (any version) answers 409 naming how many, and is archived instead (PATCH with archived: true). Admin users and API keys with directory:write (another user: 403). Sends response type.deleted.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Change, archive or restore a response type; extension
         * @description Needs `If-Match` with the ETag of a GET (428 without it; 412 when it has changed since). A request that changes nothing makes no revision. A name another response type has is a 409; options replace all the options. inputType cannot change. Admin users and API keys with directory:write (another user: 403). Sends response type.updated, or response type.archived when it becomes archived.
         */
        patch: {
            parameters: {
                query?: never;
                header: {
                    "if-match": string;
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": components["schemas"]["ResponseTypePatchRequest"];
                };
            };
            responses: {
                /** @description The response type after the change */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ResponseType"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Precondition failed: the resource changed since the ETag given in If-Match */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Precondition required: send If-Match */
                428: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/asset-types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List asset types; extension
         * @description By name, then id. An ASSET template's assetTypeId is one of these ids. Filters: namePrefix, updatedSince. Every user of the organization and API keys with directory:read. Archived asset types only with includeArchived=true.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Only those whose name starts with this (case-insensitive). */
                    namePrefix?: string;
                    /** @description Only those changed at or after this instant. */
                    updatedSince?: string;
                    /** @description true: archived ones too (default false). */
                    includeArchived?: boolean;
                    /** @description Page size, default 50; values above 100 are capped at 100. */
                    limit?: number;
                    /** @description At most 1000000000; a larger offset is a 400. */
                    offset?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of asset types */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AssetTypeList"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Create a asset type; extension
         * @description name is unique in the organization (409 when taken); field names are unique and each type is text, number, date or boolean (400). Admin users and API keys with directory:write (another user: 403). Sends asset type.created. 409 also when the organization has DIRECTORY_MAX_PER_ORG asset types already (archived ones count): delete one first.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    /**
                     * @example {
                     *       "name": "Forklift",
                     *       "fields": [
                     *         {
                     *           "name": "serialNumber",
                     *           "type": "text",
                     *           "required": true
                     *         },
                     *         {
                     *           "name": "capacityKg",
                     *           "type": "number",
                     *           "required": false
                     *         },
                     *         {
                     *           "name": "lastServiced",
                     *           "type": "date",
                     *           "required": false
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["AssetTypeCreateRequest"];
                };
            };
            responses: {
                /** @description The asset type */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AssetType"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/asset-types/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One asset type; extension
         * @description The `ETag` header names its revision (for PATCH's If-Match); If-None-Match with it answers 304.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The asset type */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AssetType"];
                    };
                };
                /** @description Not modified (If-None-Match) */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Delete a asset type; extension
         * @description Only an asset type nothing refers to: one with assets or templates naming it answers 409 naming how many of each, and is archived instead (PATCH with archived: true). Admin users and API keys with directory:write (another user: 403). Sends asset type.deleted.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Change, archive or restore a asset type; extension
         * @description Needs `If-Match` with the ETag of a GET (428 without it; 412 when it has changed since). A request that changes nothing makes no revision. A name another asset type has is a 409; fields replace all the fields. Admin users and API keys with directory:write (another user: 403). Sends asset type.updated, or asset type.archived when it becomes archived.
         */
        patch: {
            parameters: {
                query?: never;
                header: {
                    "if-match": string;
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": components["schemas"]["AssetTypePatchRequest"];
                };
            };
            responses: {
                /** @description The asset type after the change */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AssetType"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Precondition failed: the resource changed since the ETag given in If-Match */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Precondition required: send If-Match */
                428: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/assets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List assets; extension
         * @description By code, then id. Filters: namePrefix, code (exact: a scanned QR code or barcode), siteId, assetTypeId, status, updatedSince. Every user of the organization and API keys with directory:read. Archived assets only with includeArchived=true.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Only those whose name starts with this (case-insensitive). */
                    namePrefix?: string;
                    /** @description Only those changed at or after this instant. */
                    updatedSince?: string;
                    /** @description true: archived ones too (default false). */
                    includeArchived?: boolean;
                    /** @description Page size, default 50; values above 100 are capped at 100. */
                    limit?: number;
                    /** @description At most 1000000000; a larger offset is a 400. */
                    offset?: number;
                    /** @description The asset with this code (exact): a scanned QR code or barcode. */
                    code?: string;
                    /** @description Only the assets at this site. */
                    siteId?: string;
                    /** @description Only the assets of this type. */
                    assetTypeId?: string;
                    status?: "ACTIVE" | "RETIRED";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of assets */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AssetList"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Create a asset; extension
         * @description code is unique in the organization (409 when taken); assetTypeId must be an unarchived asset type and siteId an unarchived site of the organization, and fields must fit the type's field schema (400 naming the field). Admin users and API keys with directory:write (another user: 403). Sends asset.created. 409 also when the organization has DIRECTORY_MAX_PER_ORG assets already (archived ones count): delete one first.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    /**
                     * @example {
                     *       "name": "Forklift FL-07",
                     *       "code": "FL-07",
                     *       "assetTypeId": "5b0e6a3c-2f4d-4e8a-9c1b-7d6e5f4a3b2c",
                     *       "siteId": "0c7d1e2f-3a4b-4c5d-8e6f-7a8b9c0d1e2f",
                     *       "fields": {
                     *         "serialNumber": "SN-4471",
                     *         "capacityKg": 2500
                     *       },
                     *       "metadata": {
                     *         "purchaseOrder": "PO-2291"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["AssetCreateRequest"];
                };
            };
            responses: {
                /** @description The asset */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Asset"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/assets/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One asset; extension
         * @description The `ETag` header names its revision (for PATCH's If-Match); If-None-Match with it answers 304.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The asset */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Asset"];
                    };
                };
                /** @description Not modified (If-None-Match) */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Delete a asset; extension
         * @description Only an asset no inspection names: one with inspections answers 409 naming how many; retire it (status RETIRED) or archive it instead (PATCH with archived: true). Admin users and API keys with directory:write (another user: 403). Sends asset.deleted.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Change, archive or restore a asset; extension
         * @description Needs `If-Match` with the ETag of a GET (428 without it; 412 when it has changed since). A request that changes nothing makes no revision. A code another asset has is a 409; fields replace all the field values and are checked against the (new) type; metadata replaces the metadata. Admin users and API keys with directory:write (another user: 403). Sends asset.updated, or asset.archived when it becomes archived.
         */
        patch: {
            parameters: {
                query?: never;
                header: {
                    "if-match": string;
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": components["schemas"]["AssetPatchRequest"];
                };
            };
            responses: {
                /** @description The asset after the change */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Asset"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Precondition failed: the resource changed since the ETag given in If-Match */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Precondition required: send If-Match */
                428: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/groups/{id}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a group's members; extension
         * @description Members are employees (the HR sync's and SCIM's group assignments), by name. Every user of the organization and API keys with directory:read.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Page size, default 50; values above 100 are capped at 100. */
                    limit?: number;
                    /** @description At most 1000000000; a larger offset is a 400. */
                    offset?: number;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of members */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["GroupMemberList"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/groups/{id}/members/{employeeId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Add an employee to a group, or change their role in it; extension
         * @description The employee must be one of the organization's (404 otherwise). Repeating it changes nothing but memberRole. An archived group takes no new members (409). Admin users and API keys with directory:write (another user: 403). Sends group.updated. The next HR sync of the employee in replace mode sets their groups again.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    employeeId: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    /**
                     * @example {
                     *       "memberRole": "lead"
                     *     }
                     */
                    "application/json": components["schemas"]["GroupMemberRequest"];
                };
            };
            responses: {
                /** @description The membership */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["GroupMember"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        post?: never;
        /**
         * Remove an employee from a group; extension
         * @description 404 when the employee is not a member. Admin users and API keys with directory:write (another user: 403). Sends group.updated.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    employeeId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Removed */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/assets/{id}/inspections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An asset's inspections (its history); extension
         * @description Newest first, as GET /api/inspections?assetId= answers them. Every user of the organization, and API keys with directory:read and inspections:read. 404 for another organization's asset.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Page size, default 50; values above 100 are capped at 100. */
                    limit?: number;
                    /** @description At most 1000000000; a larger offset is a 400. */
                    offset?: number;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of the asset's inspections */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InspectionList"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/schedules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List schedules; extension
         * @description Newest first. Every user of the organization and API keys with schedules:read.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Only the schedules of this template. */
                    templateId?: string;
                    /** @description Page size, default 50; values above 100 are capped at 100. */
                    limit?: number;
                    /** @description At most 1000000000; a larger offset is a 400. */
                    offset?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of schedules */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ScheduleList"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Create a schedule; extension
         * @description A recurrence.rrule that does not parse, an unknown timeZone, a templateId that is not a PUBLISHED template of the organization, or assignee, site, asset type or leaver ids that are not the organization's (target.siteIds, target.siteId, target.assetTypeId, …): 400 naming the field. Admin users and API keys with schedules:write (another user: 403). Occurrences are made by the worker (docs/schedules.md). 409 when the organization has SCHEDULES_MAX_PER_ORG schedules already (paused ones count): delete one first.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": components["schemas"]["ScheduleCreateRequest"];
                };
            };
            responses: {
                /** @description The schedule */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Schedule"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/schedules/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One schedule; extension
         * @description The `ETag` header names its revision (for PATCH's If-Match).
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The schedule */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Schedule"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Delete a schedule; extension
         * @description Its upcoming occurrences go with it; opened, completed and missed ones stay (without a schedule). Admin users and API keys with schedules:write (another user: 403).
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Change, pause or resume a schedule; extension
         * @description Needs `If-Match` with the ETag of a GET (428 without it; 412 when it has changed since). A change applies to occurrences not yet opened: the upcoming ones are made again from the new rule. paused: true stops new occurrences (upcoming ones are removed); false resumes from now. A recurrence.rrule that does not parse, an unknown timeZone, a templateId that is not a PUBLISHED template of the organization, or assignee, site, asset type or leaver ids that are not the organization's (target.siteIds, target.siteId, target.assetTypeId, …): 400 naming the field. Admin users and API keys with schedules:write (another user: 403).
         */
        patch: {
            parameters: {
                query?: never;
                header: {
                    "if-match": string;
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": components["schemas"]["SchedulePatchRequest"];
                };
            };
            responses: {
                /** @description The schedule after the change */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Schedule"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Precondition failed: the resource changed since the ETag given in If-Match */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Precondition required: send If-Match */
                428: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/schedules/{id}/upcoming": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Preview a schedule's next start and due times; extension
         * @description The next `count` starts at or after `from`, in UTC and in the schedule's zone, computed from the rule without creating anything. For afterCompletionDays schedules: the next one as if the last completion were the latest completed occurrence.
         */
        get: {
            parameters: {
                query?: {
                    /** @description From this instant (default: now). */
                    from?: string;
                    /** @description How many, 1 to 100 (default 10). */
                    count?: number;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The next occurrences */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ScheduleUpcoming"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/occurrences": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List occurrences of schedules (the field app's work list); extension
         * @description Ordered by due time, then id. A user token sees its own (assignee=me) unless it is an admin's and names another assignee or none; an API key with schedules:read sees all unless it names an assignee. Filters: assignee (me or a user id), state, from/to (due time), siteId, assetId, scheduleId.
         */
        get: {
            parameters: {
                query?: {
                    /** @description `me` (a user token's default) or a user id. */
                    assignee?: string;
                    /** @description Only occurrences in this state. */
                    state?: "UPCOMING" | "OPEN" | "COMPLETED" | "MISSED" | "LATE" | "COMPLETED_LATE";
                    /** @description Due at or after this instant. */
                    from?: string;
                    /** @description Due before this instant. */
                    to?: string;
                    siteId?: string;
                    assetId?: string;
                    scheduleId?: string;
                    /** @description Page size, default 50; values above 100 are capped at 100. */
                    limit?: number;
                    /** @description At most 1000000000; a larger offset is a 400. */
                    offset?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of occurrences */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["OccurrenceList"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/occurrences/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One occurrence; extension
         * @description Every user of the organization and API keys with schedules:read.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The occurrence */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Occurrence"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List users; extension
         * @description Admin users, and API keys with users:manage (another user: 403). By e-mail. Each with its employee link (employeeId, externalEmployeeId, managedByHrSync). Never a password or its hash.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Page size, default 50; values above 100 are capped at 100. */
                    limit?: number;
                    /** @description At most 1000000000; a larger offset is a 400. */
                    offset?: number;
                    /** @description Only users whose e-mail or name starts with this (case-insensitive). */
                    q?: string;
                    /** @description true: only disabled users; false: only enabled ones; absent: both. */
                    disabled?: boolean;
                    /** @description true: only admins; false: only non-admins; absent: both. */
                    isAdmin?: boolean;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of users */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["UserList"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Invite a user; extension
         * @description Admin users, and API keys with users:manage (another user: 403). Creates the user with mustResetPassword and sends the same welcome mail as the HR sync, with a temporary password made at sending (it exists only in the mail); the user must choose a password (POST /api/auth/password) before anything else. An e-mail already used (in any organization) is a 409.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    /**
                     * @example {
                     *       "email": "jane.doe@example.com",
                     *       "name": "Jane Doe",
                     *       "isAdmin": false
                     *     }
                     */
                    "application/json": components["schemas"]["UserInviteRequest"];
                };
            };
            responses: {
                /** @description The user; the welcome mail is queued */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvitedUser"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One user; extension
         * @description Admin users, and API keys with users:manage (another user: 403). Another organization's user is a 404.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The user */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["User"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change a user; extension
         * @description Admin users, and API keys with users:manage (another user: 403). Send If-Match with the ETag of GET /api/users/{id} (428 without it, 412 when the user changed since). For a user linked to an employee (managedByHrSync), the fields in hrOwnedFields (name, email, disabled) belong to the HR sync: changing one is a 409 naming it. Disabling or demoting the organization's last active admin is a 409. Disabling (or demoting) refuses the user's tokens at once.
         */
        patch: {
            parameters: {
                query?: never;
                header: {
                    /** @description The ETag of GET /api/users/{id}. */
                    "if-match": string;
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    /**
                     * @example {
                     *       "disabled": true
                     *     }
                     */
                    "application/json": components["schemas"]["UserPatchRequest"];
                };
            };
            responses: {
                /** @description The user as changed (with its new ETag) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["User"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Precondition failed: the resource changed since the ETag given in If-Match */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Precondition required: send If-Match */
                428: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/users/{id}/reset-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mail a user a new temporary password; extension
         * @description Admin users, and API keys with users:manage (another user: 403). The user's password and their tokens stop working at once; a welcome mail with a new temporary password (made at sending) is queued, and the user must choose a password (POST /api/auth/password) after signing in with it. A disabled user is a 409.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The user; the mail is queued */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvitedUser"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/feed/templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Change feed of templates; extension
         * @description Every change of the caller's organization, oldest first, from a cursor. A crawler that follows nextCursor sees every change exactly once, in a stable order, even when transactions commit out of order: a change appears once every transaction that began before it has ended. Each item carries the resource as it is now. An unknown or altered cursor is a 400.
         */
        get: {
            parameters: {
                query?: {
                    /** @description nextCursor of the previous page; none: from the first change. */
                    cursor?: string;
                    /** @description Changes per page, default 100; values above 500 are capped at 500. */
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of changes of templates */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TemplateFeed"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/feed/inspections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Change feed of inspections; extension
         * @description Every change of the caller's organization, oldest first, from a cursor. A crawler that follows nextCursor sees every change exactly once, in a stable order, even when transactions commit out of order: a change appears once every transaction that began before it has ended. Each item carries the resource as it is now. An unknown or altered cursor is a 400.
         */
        get: {
            parameters: {
                query?: {
                    /** @description nextCursor of the previous page; none: from the first change. */
                    cursor?: string;
                    /** @description Changes per page, default 100; values above 500 are capped at 500. */
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of changes of inspections */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InspectionFeed"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/feed/occurrences": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Change feed of occurrences of schedules; extension
         * @description Every change of the caller's organization, oldest first, from a cursor. A crawler that follows nextCursor sees every change exactly once, in a stable order, even when transactions commit out of order: a change appears once every transaction that began before it has ended. Each item carries the resource as it is now. An unknown or altered cursor is a 400.
         */
        get: {
            parameters: {
                query?: {
                    /** @description nextCursor of the previous page; none: from the first change. */
                    cursor?: string;
                    /** @description Changes per page, default 100; values above 500 are capped at 500. */
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of changes of occurrences of schedules */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["OccurrenceFeed"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/feed/actions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Change feed of corrective actions; extension
         * @description Every change of the caller's organization, oldest first, from a cursor. A crawler that follows nextCursor sees every change exactly once, in a stable order, even when transactions commit out of order: a change appears once every transaction that began before it has ended. Each item carries the resource as it is now. An unknown or altered cursor is a 400.
         */
        get: {
            parameters: {
                query?: {
                    /** @description nextCursor of the previous page; none: from the first change. */
                    cursor?: string;
                    /** @description Changes per page, default 100; values above 500 are capped at 500. */
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of changes of corrective actions */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CorrectiveActionFeed"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/feed/employees": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Change feed of employees; extension
         * @description Every change of the caller's organization, oldest first, from a cursor. A crawler that follows nextCursor sees every change exactly once, in a stable order, even when transactions commit out of order: a change appears once every transaction that began before it has ended. Each item carries the resource as it is now. An unknown or altered cursor is a 400.
         */
        get: {
            parameters: {
                query?: {
                    /** @description nextCursor of the previous page; none: from the first change. */
                    cursor?: string;
                    /** @description Changes per page, default 100; values above 500 are capped at 500. */
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of changes of employees */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["EmployeeFeed"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/feed/sites": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Change feed of sites; extension
         * @description Every change of the caller's organization, oldest first, from a cursor. A crawler that follows nextCursor sees every change exactly once, in a stable order, even when transactions commit out of order: a change appears once every transaction that began before it has ended. Each item carries the resource as it is now. An unknown or altered cursor is a 400.
         */
        get: {
            parameters: {
                query?: {
                    /** @description nextCursor of the previous page; none: from the first change. */
                    cursor?: string;
                    /** @description Changes per page, default 100; values above 500 are capped at 500. */
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of changes of sites */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SiteFeed"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/feed/groups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Change feed of groups; extension
         * @description Every change of the caller's organization, oldest first, from a cursor. A crawler that follows nextCursor sees every change exactly once, in a stable order, even when transactions commit out of order: a change appears once every transaction that began before it has ended. Each item carries the resource as it is now. An unknown or altered cursor is a 400.
         */
        get: {
            parameters: {
                query?: {
                    /** @description nextCursor of the previous page; none: from the first change. */
                    cursor?: string;
                    /** @description Changes per page, default 100; values above 500 are capped at 500. */
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of changes of groups */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["GroupFeed"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/feed/roles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Change feed of roles; extension
         * @description Every change of the caller's organization, oldest first, from a cursor. A crawler that follows nextCursor sees every change exactly once, in a stable order, even when transactions commit out of order: a change appears once every transaction that began before it has ended. Each item carries the resource as it is now. An unknown or altered cursor is a 400.
         */
        get: {
            parameters: {
                query?: {
                    /** @description nextCursor of the previous page; none: from the first change. */
                    cursor?: string;
                    /** @description Changes per page, default 100; values above 500 are capped at 500. */
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of changes of roles */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RoleFeed"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/feed/response-types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Change feed of response types; extension
         * @description Every change of the caller's organization, oldest first, from a cursor. A crawler that follows nextCursor sees every change exactly once, in a stable order, even when transactions commit out of order: a change appears once every transaction that began before it has ended. Each item carries the resource as it is now. An unknown or altered cursor is a 400.
         */
        get: {
            parameters: {
                query?: {
                    /** @description nextCursor of the previous page; none: from the first change. */
                    cursor?: string;
                    /** @description Changes per page, default 100; values above 500 are capped at 500. */
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of changes of response types */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ResponseTypeFeed"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/feed/asset-types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Change feed of asset types; extension
         * @description Every change of the caller's organization, oldest first, from a cursor. A crawler that follows nextCursor sees every change exactly once, in a stable order, even when transactions commit out of order: a change appears once every transaction that began before it has ended. Each item carries the resource as it is now. An unknown or altered cursor is a 400.
         */
        get: {
            parameters: {
                query?: {
                    /** @description nextCursor of the previous page; none: from the first change. */
                    cursor?: string;
                    /** @description Changes per page, default 100; values above 500 are capped at 500. */
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of changes of asset types */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AssetTypeFeed"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/feed/assets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Change feed of assets; extension
         * @description Every change of the caller's organization, oldest first, from a cursor. A crawler that follows nextCursor sees every change exactly once, in a stable order, even when transactions commit out of order: a change appears once every transaction that began before it has ended. Each item carries the resource as it is now. An unknown or altered cursor is a 400.
         */
        get: {
            parameters: {
                query?: {
                    /** @description nextCursor of the previous page; none: from the first change. */
                    cursor?: string;
                    /** @description Changes per page, default 100; values above 500 are capped at 500. */
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of changes of assets */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AssetFeed"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/feed/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Change feed of users; extension
         * @description Every change of the caller's organization, oldest first, from a cursor. A crawler that follows nextCursor sees every change exactly once, in a stable order, even when transactions commit out of order: a change appears once every transaction that began before it has ended. Each item carries the resource as it is now. An unknown or altered cursor is a 400.
         */
        get: {
            parameters: {
                query?: {
                    /** @description nextCursor of the previous page; none: from the first change. */
                    cursor?: string;
                    /** @description Changes per page, default 100; values above 500 are capped at 500. */
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of changes of users */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["UserFeed"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List webhook endpoints; Webhooks; extension */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Endpoints, newest first */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WebhookEndpoint"][];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Register a webhook endpoint; Webhooks; extension
         * @description Events are POSTed as `{id, type, timestamp, organizationId, data}` and signed as the Standard Webhooks specification says (webhook-id, webhook-timestamp, webhook-signature). In production the url must be https and must not resolve to a private, loopback or link-local address. An organization has at most WEBHOOK_MAX_ENDPOINTS_PER_ORG endpoints (default 25): past it, 409.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    /**
                     * @example {
                     *       "url": "https://hooks.example.com/inspections",
                     *       "events": [
                     *         "inspection.completed",
                     *         "employee.deactivated"
                     *       ],
                     *       "description": "Reporting"
                     *     }
                     */
                    "application/json": {
                        url: string;
                        events: ("template.created" | "template.published" | "template.archived" | "template.draft_created" | "inspection.created" | "inspection.updated" | "inspection.completed" | "inspection.reviewed" | "action.created" | "action.updated" | "action.completed" | "action.overdue" | "employee.created" | "employee.updated" | "employee.deactivated" | "employee.erased" | "sync.request.completed" | "api_key.created" | "api_key.revoked" | "oauth_client.created" | "oauth_client.rotated" | "oauth_client.revoked" | "user.created" | "user.updated" | "user.disabled" | "user.enabled" | "site.created" | "site.updated" | "site.archived" | "site.deleted" | "group.created" | "group.updated" | "group.archived" | "group.deleted" | "role.created" | "role.updated" | "role.archived" | "role.deleted" | "response_type.created" | "response_type.updated" | "response_type.archived" | "response_type.deleted" | "asset_type.created" | "asset_type.updated" | "asset_type.archived" | "asset_type.deleted" | "asset.created" | "asset.updated" | "asset.archived" | "asset.deleted" | "schedule.created" | "schedule.updated" | "schedule.deleted" | "occurrence.opened" | "occurrence.due_soon" | "occurrence.missed" | "occurrence.completed" | "occurrence.reassigned")[];
                        description?: string | null;
                    };
                };
            };
            responses: {
                /** @description The endpoint, with its secret */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CreatedWebhookEndpoint"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One webhook endpoint; Webhooks; extension */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The endpoint */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WebhookEndpoint"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete a webhook endpoint and its deliveries; Webhooks; extension */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Change a webhook endpoint; Webhooks; extension
         * @description enabled: true also clears why the service disabled it.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": {
                        url?: string;
                        events?: ("template.created" | "template.published" | "template.archived" | "template.draft_created" | "inspection.created" | "inspection.updated" | "inspection.completed" | "inspection.reviewed" | "action.created" | "action.updated" | "action.completed" | "action.overdue" | "employee.created" | "employee.updated" | "employee.deactivated" | "employee.erased" | "sync.request.completed" | "api_key.created" | "api_key.revoked" | "oauth_client.created" | "oauth_client.rotated" | "oauth_client.revoked" | "user.created" | "user.updated" | "user.disabled" | "user.enabled" | "site.created" | "site.updated" | "site.archived" | "site.deleted" | "group.created" | "group.updated" | "group.archived" | "group.deleted" | "role.created" | "role.updated" | "role.archived" | "role.deleted" | "response_type.created" | "response_type.updated" | "response_type.archived" | "response_type.deleted" | "asset_type.created" | "asset_type.updated" | "asset_type.archived" | "asset_type.deleted" | "asset.created" | "asset.updated" | "asset.archived" | "asset.deleted" | "schedule.created" | "schedule.updated" | "schedule.deleted" | "occurrence.opened" | "occurrence.due_soon" | "occurrence.missed" | "occurrence.completed" | "occurrence.reassigned")[];
                        description?: string | null;
                        enabled?: boolean;
                    };
                };
            };
            responses: {
                /** @description The endpoint */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WebhookEndpoint"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/webhooks/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * New signing secret; Webhooks; extension
         * @description For 24 hours both the new and the previous secret sign every delivery (two signatures in webhook-signature).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The new secret */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RotatedWebhookSecret"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Deliveries of an endpoint with every attempt; Webhooks; extension */
        get: {
            parameters: {
                query?: {
                    /** @description Page size, default 50; values above 100 are capped at 100. */
                    limit?: number;
                    /** @description At most 1000000000; a larger offset is a 400. */
                    offset?: number;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deliveries, newest first */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WebhookDeliveries"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send past events again; Webhooks; extension
         * @description `{eventId}`: that event; `{since}`: every event of the endpoint's types since then (`until`: before then), oldest first. A replay that would create more than WEBHOOK_REPLAY_MAX_DELIVERIES deliveries (default 10,000) creates none and answers 422 with an `until` that fits. Replays carry the event's original id.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": {
                        eventId: string;
                    } | {
                        /** Format: date-time */
                        since: string;
                        /** Format: date-time */
                        until?: string;
                    };
                };
            };
            responses: {
                /** @description Deliveries created */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WebhookReplay"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The replay would create more deliveries than WEBHOOK_REPLAY_MAX_DELIVERIES; none were created: narrow it */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WebhookReplayTooLarge"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List API keys; extension
         * @description Admin users, and API keys with credentials:manage (another user: 403). Newest first, revoked and expired ones included (see status). Never the key or its hash.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Page size, default 50; values above 100 are capped at 100. */
                    limit?: number;
                    /** @description At most 1000000000; a larger offset is a 400. */
                    offset?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of keys */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiKeyList"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Create an API key; extension
         * @description Admin users, and API keys with credentials:manage (another user: 403). The key is in this answer only (`apiKey`); only its hash is stored. An API key may give the new key only scopes it holds itself (403 naming the first it lacks); an admin user may give any of 20. At most CREDENTIALS_MAX_ACTIVE_PER_ORG active keys per organization (409 past it: revoke one first). Sends api_key.created.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": components["schemas"]["ApiKeyCreateRequest"];
                };
            };
            responses: {
                /** @description The key, with its secret (shown once) */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CreatedApiKey"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/api-keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One API key; extension
         * @description Admin users, and API keys with credentials:manage (another user: 403). Another organization's key is a 404.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The key (never its secret) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiKey"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/api-keys/{id}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revoke an API key; extension
         * @description Admin users, and API keys with credentials:manage (another user: 403). From this answer on the key is refused (401). A key may revoke itself (to retire a key that leaked); revoking a revoked key changes nothing and answers it as it is. Sends api_key.revoked.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The key, revoked */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiKey"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/oauth-clients": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List OAuth clients; extension
         * @description Admin users, and API keys with credentials:manage (another user: 403). Newest first, revoked ones included. Never a secret.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Page size, default 50; values above 100 are capped at 100. */
                    limit?: number;
                    /** @description At most 1000000000; a larger offset is a 400. */
                    offset?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of clients */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["OAuthClientList"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Create an OAuth client; extension
         * @description Admin users, and API keys with credentials:manage (another user: 403). For the client-credentials grant (POST /oauth/token): an HR system (employees:sync) or an identity provider (scim). The secret is in this answer only (`clientSecret`). At most CREDENTIALS_MAX_ACTIVE_PER_ORG active clients per organization (409 past it). Sends oauth_client.created.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    /**
                     * @example {
                     *       "name": "Workday sync",
                     *       "scopes": [
                     *         "employees:sync"
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["OAuthClientCreateRequest"];
                };
            };
            responses: {
                /** @description The client, with its secret (shown once) */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CreatedOAuthClient"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/oauth-clients/{clientId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One OAuth client; extension
         * @description Admin users, and API keys with credentials:manage (another user: 403). Another organization's client is a 404.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    clientId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The client (never its secret) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["OAuthClient"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/oauth-clients/{clientId}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * New client secret; extension
         * @description Admin users, and API keys with credentials:manage (another user: 403). The new secret is in this answer only. The previous secret is still accepted until previousSecretExpiresAt (OAUTH_CLIENT_SECRET_GRACE_SECONDS, default 24 hours), so the HR system can switch without downtime; a secret older than that (from an earlier rotation) is refused at once. Tokens already issued stay valid until they expire. A revoked client is a 409. Sends oauth_client.rotated.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    clientId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The client with its new secret (shown once) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CreatedOAuthClient"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/oauth-clients/{clientId}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revoke an OAuth client; extension
         * @description Admin users, and API keys with credentials:manage (another user: 403). Its secrets are refused and its tokens stop working at once. Revoking a revoked client changes nothing. Sends oauth_client.revoked.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    clientId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The client, revoked */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["OAuthClient"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Audit log of the caller's organization, newest first; extension
         * @description Who changed what and when: every change made through the API or the workers, logins and failed logins. API key or admin user. Entries are kept AUDIT_RETENTION_DAYS (default 365).
         */
        get: {
            parameters: {
                query?: {
                    /** @description e.g. employee.updated, template.published, user.login_failed */
                    action?: string;
                    /** @description An API key id, OAuth client id or user id. */
                    actorId?: string;
                    resourceType?: string;
                    resourceId?: string;
                    since?: string;
                    until?: string;
                    /** @description nextCursor of the previous page (older entries). */
                    cursor?: string;
                    /** @description Entries per page, default 50; above 200 is capped. */
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of entries */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AuditPage"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/sync/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a snapshot sync session; extension
         * @description Send every batch of a full HR snapshot with `?sessionId=`, then commit: every ACTIVE employee in the scope that none of the batches named becomes INACTIVE (account disabled, assignments removed). Sessions expire after SYNC_SESSION_TTL_HOURS.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    /**
                     * @example {
                     *       "scope": {
                     *         "department": "Operations"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["SyncSessionRequest"];
                };
            };
            responses: {
                /** @description Open */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SyncSession"];
                    };
                };
                /** @description Invalid request */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/sync/sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A sync session with its status; extension */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The session */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SyncSession"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/sync/sessions/{id}/commit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Commit a sync session: deactivate who did not appear; extension
         * @description 200 with the session (`committed`, `deactivated`) once the deactivations are applied; 202 with `Location` when they are still being applied after SYNC_WAIT_SECONDS; 202 `quarantined` (nothing changed, `wouldDeactivate` lists who would go) when more than DEACTIVATION_THRESHOLD_PERCENT % and more than DEACTIVATION_THRESHOLD_MIN employees would be deactivated: an administrator approves or cancels it. `?dryRun=true` lists the same without changing anything. 409 when the session is not open, or while another session of the organization is applying its deactivations.
         */
        post: {
            parameters: {
                query?: {
                    /** @description List who would be deactivated, change nothing. */
                    dryRun?: "true" | "false";
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Committed, or the dry run's list */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SyncSession"] | components["schemas"]["SyncSessionCommitPreview"];
                    };
                };
                /** @description Quarantined for approval, or still applying */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SyncSession"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Error */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/sync/sessions/{id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve a quarantined commit; extension
         * @description An administrator (API key or admin user; also `npm run admin -- approve-sync-session`): the employees the quarantine listed who are still ACTIVE and still unnamed are deactivated. Answers like a commit.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Committed */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SyncSession"];
                    };
                };
                /** @description Still applying */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SyncSession"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/sync/sessions/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel an open or quarantined session; extension
         * @description Nobody is deactivated. The session's client, an API key or an admin user.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Cancelled */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SyncSession"];
                    };
                };
                /** @description Missing or invalid credential */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Forbidden */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (see Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scim/v2/Users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** SCIM: list or filter Users */
        get: {
            parameters: {
                query?: {
                    filter?: string;
                    /** @description 1-based */
                    startIndex?: string;
                    /** @description at most 200; 0 only counts */
                    count?: string;
                    attributes?: string;
                    excludedAttributes?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description ListResponse */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": {
                            schemas: string[];
                            totalResults: number;
                            startIndex: number;
                            itemsPerPage: number;
                            Resources: components["schemas"]["ScimUser"][];
                        };
                        "application/json": {
                            schemas: string[];
                            totalResults: number;
                            startIndex: number;
                            itemsPerPage: number;
                            Resources: components["schemas"]["ScimUser"][];
                        };
                    };
                };
                /** @description SCIM error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
                /** @description SCIM error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
                /** @description SCIM error */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
            };
        };
        put?: never;
        /** SCIM: create a User */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/scim+json": components["schemas"]["ScimUser"];
                    "application/json": components["schemas"]["ScimUser"];
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimUser"];
                        "application/json": components["schemas"]["ScimUser"];
                    };
                };
                /** @description SCIM error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
                /** @description SCIM error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
                /** @description SCIM error */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
                /** @description SCIM error */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scim/v2/Users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** SCIM: one User */
        get: {
            parameters: {
                query?: {
                    attributes?: string;
                    excludedAttributes?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The resource */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimUser"];
                        "application/json": components["schemas"]["ScimUser"];
                    };
                };
                /** @description Not modified */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description SCIM error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
                /** @description SCIM error */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
                /** @description SCIM error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
            };
        };
        /** SCIM: replace a User */
        put: {
            parameters: {
                query?: never;
                header?: {
                    "if-match"?: string;
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/scim+json": components["schemas"]["ScimUser"];
                    "application/json": components["schemas"]["ScimUser"];
                };
            };
            responses: {
                /** @description Replaced */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimUser"];
                        "application/json": components["schemas"]["ScimUser"];
                    };
                };
                /** @description SCIM error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
                /** @description SCIM error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
                /** @description SCIM error */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
                /** @description SCIM error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
                /** @description SCIM error */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
                /** @description SCIM error */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
            };
        };
        post?: never;
        /** SCIM: delete a User */
        delete: {
            parameters: {
                query?: never;
                header?: {
                    "if-match"?: string;
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description SCIM error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
                /** @description SCIM error */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
                /** @description SCIM error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
                /** @description SCIM error */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** SCIM: patch a User */
        patch: {
            parameters: {
                query?: never;
                header?: {
                    "if-match"?: string;
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/scim+json": components["schemas"]["ScimPatchOp"];
                    "application/json": components["schemas"]["ScimPatchOp"];
                };
            };
            responses: {
                /** @description Patched */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimUser"];
                        "application/json": components["schemas"]["ScimUser"];
                    };
                };
                /** @description Patched */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description SCIM error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
                /** @description SCIM error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
                /** @description SCIM error */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
                /** @description SCIM error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
                /** @description SCIM error */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
                /** @description SCIM error */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/scim/v2/Groups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** SCIM: list or filter Groups */
        get: {
            parameters: {
                query?: {
                    filter?: string;
                    /** @description 1-based */
                    startIndex?: string;
                    /** @description at most 200; 0 only counts */
                    count?: string;
                    attributes?: string;
                    excludedAttributes?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description ListResponse */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": {
                            schemas: string[];
                            totalResults: number;
                            startIndex: number;
                            itemsPerPage: number;
                            Resources: components["schemas"]["ScimGroup"][];
                        };
                        "application/json": {
                            schemas: string[];
                            totalResults: number;
                            startIndex: number;
                            itemsPerPage: number;
                            Resources: components["schemas"]["ScimGroup"][];
                        };
                    };
                };
                /** @description SCIM error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
                /** @description SCIM error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
                /** @description SCIM error */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
            };
        };
        put?: never;
        /** SCIM: create a Group */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/scim+json": components["schemas"]["ScimGroup"];
                    "application/json": components["schemas"]["ScimGroup"];
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimGroup"];
                        "application/json": components["schemas"]["ScimGroup"];
                    };
                };
                /** @description SCIM error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
                /** @description SCIM error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
                /** @description SCIM error */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
                /** @description SCIM error */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scim/v2/Groups/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** SCIM: one Group */
        get: {
            parameters: {
                query?: {
                    attributes?: string;
                    excludedAttributes?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The resource */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimGroup"];
                        "application/json": components["schemas"]["ScimGroup"];
                    };
                };
                /** @description Not modified */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description SCIM error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
                /** @description SCIM error */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
                /** @description SCIM error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
            };
        };
        /** SCIM: replace a Group */
        put: {
            parameters: {
                query?: never;
                header?: {
                    "if-match"?: string;
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/scim+json": components["schemas"]["ScimGroup"];
                    "application/json": components["schemas"]["ScimGroup"];
                };
            };
            responses: {
                /** @description Replaced */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimGroup"];
                        "application/json": components["schemas"]["ScimGroup"];
                    };
                };
                /** @description SCIM error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
                /** @description SCIM error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
                /** @description SCIM error */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
                /** @description SCIM error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
                /** @description SCIM error */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
                /** @description SCIM error */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
            };
        };
        post?: never;
        /** SCIM: delete a Group */
        delete: {
            parameters: {
                query?: never;
                header?: {
                    "if-match"?: string;
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description SCIM error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
                /** @description SCIM error */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
                /** @description SCIM error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
                /** @description SCIM error */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * SCIM: patch a Group
         * @description 204, or 200 with the group when `attributes` is given.
         */
        patch: {
            parameters: {
                query?: never;
                header?: {
                    "if-match"?: string;
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/scim+json": components["schemas"]["ScimPatchOp"];
                    "application/json": components["schemas"]["ScimPatchOp"];
                };
            };
            responses: {
                /** @description Patched */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimGroup"];
                        "application/json": components["schemas"]["ScimGroup"];
                    };
                };
                /** @description Patched */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description SCIM error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
                /** @description SCIM error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
                /** @description SCIM error */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
                /** @description SCIM error */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
                /** @description SCIM error */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
                /** @description SCIM error */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/scim/v2/Bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** SCIM: several operations, with bulkId references */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/scim+json": {
                        schemas: string[];
                        failOnErrors?: number;
                        Operations: {
                            method: string;
                            path: string;
                            bulkId?: string;
                            version?: string;
                            data?: unknown;
                        }[];
                    };
                    "application/json": {
                        schemas: string[];
                        failOnErrors?: number;
                        Operations: {
                            method: string;
                            path: string;
                            bulkId?: string;
                            version?: string;
                            data?: unknown;
                        }[];
                    };
                };
            };
            responses: {
                /** @description BulkResponse */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": {
                            schemas: string[];
                            Operations: ({
                                status: string;
                            } & {
                                [key: string]: unknown;
                            })[];
                        };
                        "application/json": {
                            schemas: string[];
                            Operations: ({
                                status: string;
                            } & {
                                [key: string]: unknown;
                            })[];
                        };
                    };
                };
                /** @description SCIM error */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
                /** @description SCIM error */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
                /** @description SCIM error */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
                /** @description SCIM error */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": components["schemas"]["ScimError"];
                        "application/json": components["schemas"]["ScimError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scim/v2/ServiceProviderConfig": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** SCIM discovery: ServiceProviderConfig (no token needed) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description RFC 7643 sections 5 to 7 */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": {
                            [key: string]: unknown;
                        };
                        "application/json": {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scim/v2/ResourceTypes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** SCIM discovery: ResourceTypes (no token needed) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description RFC 7643 sections 5 to 7 */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": {
                            [key: string]: unknown;
                        };
                        "application/json": {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scim/v2/Schemas": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** SCIM discovery: Schemas (no token needed) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description RFC 7643 sections 5 to 7 */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/scim+json": {
                            [key: string]: unknown;
                        };
                        "application/json": {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The process is alive; extension
         * @description Answers as long as the process runs; it checks nothing else, so a restart policy never kills a process for a dependency's outage.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description ok */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            status: "ok";
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Postgres and Redis reachable; extension */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description ready */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Readiness"];
                    };
                };
                /** @description a dependency is down */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Readiness"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description Every error is JSON: `{error}`, plus `details` (one message per violation) where the spec says. */
        Error: {
            error: string;
            details?: string[];
        };
        TokenResponse: {
            access_token: string;
            /** @enum {string} */
            token_type: "Bearer";
            expires_in: number;
            scope: string;
        };
        OAuthError: {
            /** @enum {string} */
            error: "invalid_request" | "invalid_client" | "invalid_grant" | "unauthorized_client" | "unsupported_grant_type" | "invalid_scope";
            error_description?: string;
        };
        LoginResponse: {
            accessToken: string;
            expiresIn: number;
            mustResetPassword: boolean;
        };
        /**
         * @example {
         *       "kind": "apiKey",
         *       "organizationId": "9f315d7c-1cbe-4492-ac2d-28c3e9931376",
         *       "apiKey": {
         *         "id": "0b6f3c2e-8f0e-4d7a-9d55-3f4f0e2b1a10",
         *         "name": "reporting",
         *         "prefix": "isk_Q2rp-PDu",
         *         "scopes": [
         *           "inspections:read",
         *           "media:read"
         *         ],
         *         "createdAt": "2026-11-24T23:28:11.204Z",
         *         "expiresAt": null
         *       }
         *     }
         */
        WhoAmI: {
            /** @enum {string} */
            kind: "apiKey";
            organizationId: string;
            apiKey: {
                id: string;
                name: string;
                prefix: string;
                /** @description What this credential may do: an API key's scopes (docs/authentication.md, API key scopes) or an access token's OAuth scopes. */
                scopes: string[];
                createdAt: string;
                /** @description When the key stops working; null: never. */
                expiresAt: string | null;
            };
        } | {
            /** @enum {string} */
            kind: "user";
            organizationId: string;
            user: {
                id: string;
                email: string;
                name: string | null;
                isAdmin: boolean;
                mustResetPassword: boolean;
            };
        } | {
            /** @enum {string} */
            kind: "client";
            organizationId: string;
            client: {
                clientId: string;
                name: string;
                /** @description What this credential may do: an API key's scopes (docs/authentication.md, API key scopes) or an access token's OAuth scopes. */
                scopes: string[];
            };
        };
        CorrectiveAction: {
            /** Format: uuid */
            id: string;
            title: string;
            description: string | null;
            /** @enum {string} */
            priority: "LOW" | "MEDIUM" | "HIGH";
            /** @enum {string} */
            status: "OPEN" | "IN_PROGRESS" | "DONE" | "CANCELLED";
            /** Format: uuid */
            assigneeId: string | null;
            assignee: {
                /** Format: uuid */
                id: string;
                name: string | null;
                email: string;
            } | null;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            dueAt: string | null;
            /** @description OPEN or IN_PROGRESS with dueAt in the past. */
            overdue: boolean;
            /** Format: uuid */
            inspectionId: string | null;
            /** Format: uuid */
            questionId: string | null;
            /** @description The credential that created it (API key, user, ...). */
            createdBy: {
                /** @description api_key, user, admin_cli, ... */
                type: string;
                id: string | null;
            };
            /**
             * Format: date-time
             * @description When it became DONE; null while it is not DONE (reopening clears it).
             * @example 2026-01-31T09:30:00.000Z
             */
            completedAt: string | null;
            /** @description Who made it DONE; null while it is not DONE. */
            completedBy: {
                /** @description api_key, user, admin_cli, ... */
                type: string;
                id: string | null;
            } | null;
            /** @description 1 when created, one more for every accepted PATCH. The ETag header names it. */
            revision: number;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            updatedAt: string;
        };
        CorrectiveActionList: {
            actions: components["schemas"]["CorrectiveAction"][];
            pagination: {
                total: number;
                limit: number;
                offset: number;
                hasMore: boolean;
            };
        };
        InspectionSummary: {
            id: string;
            /** @example INS-000123 */
            inspectionNumber: string;
            templateId: string;
            templateVersion: number;
            assetId?: string;
            assetName?: string;
            siteId?: string;
            conductedBy: string;
            organizationId: string;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            startedAt: string | null;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            completedAt: string | null;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            updatedAt: string;
            /** @enum {string} */
            status: "COMPLETED" | "IN_PROGRESS";
            template: components["schemas"]["InspectionTemplateRef"];
            inspector: components["schemas"]["InspectionInspectorRef"];
            site?: components["schemas"]["InspectionSiteRef"];
            asset?: components["schemas"]["InspectionAssetRef"];
            /** @description Extension: points of the visible scored questions (docs/scoring.md). */
            score: number;
            /** @description Extension: their maximums; an unanswered one counts with 0 points. */
            maxScore: number;
            /** @description Extension: score / maxScore * 100, two decimals; null when maxScore is 0. */
            scorePercentage: number | null;
            /** @description Extension: answers flagged by a flagged option or a flag rule. */
            flaggedCount: number;
            /**
             * @description Extension: RECEIVED on import; set by POST /api/inspections/{id}/review (docs/review.md).
             * @enum {string}
             */
            reviewState: "RECEIVED" | "HAS_ISSUES" | "APPROVED" | "REJECTED";
            location: components["schemas"]["InspectionLocation"];
        };
        InspectionTemplateRef: {
            id: string;
            title: string;
            /** @enum {string} */
            type: "ASSET" | "AUDIT";
        };
        InspectionInspectorRef: {
            id: string;
            name: string | null;
            email: string;
        };
        /** @description Present when the inspection has a site. */
        InspectionSiteRef: {
            id: string;
            name: string;
            code: string;
        };
        /** @description Present when the inspection has an asset. */
        InspectionAssetRef: {
            id: string;
            name: string;
            code: string | null;
        };
        /**
         * @description Extension: where it took place; null when not given.
         * @example {
         *       "latitude": 52.5163,
         *       "longitude": 13.3777,
         *       "accuracyMeters": 12
         *     }
         */
        InspectionLocation: {
            latitude: number;
            longitude: number;
            accuracyMeters?: number;
        } | null;
        InspectionListAnswer: {
            id: string;
            questionId: string;
            answerText: string | null;
            answerNumber: number | null;
            answerBoolean: boolean | null;
            answerDate: string | null;
            answerJson?: unknown;
            responseOptionId: string | null;
            templateOptionId: string | null;
            unitId: string | null;
            unitCategory: string | null;
            note: string | null;
            /** @description Extension: a flagged option was chosen, or a flag rule holds (as of the inspection's latest revision). */
            flagged: boolean;
        };
        InspectionImage: {
            /**
             * @description data:<mime>;base64,<bytes>
             * @example data:image/png;base64,iVBORw0KGgo...
             */
            imgBlobSrc: string;
            /**
             * @description <width>x<height>, read from the image
             * @example 640x480
             */
            imgDimension?: string;
        };
        InspectionImageRef: {
            /** Format: uuid */
            mediaId: string;
            /**
             * @description GET it with the same credentials: /api/media/{mediaId}
             * @example /api/media/0b6f1c1e-8c39-4f5e-9a43-2d0f8f2b1d77
             */
            url: string;
            mimeType: string;
            imgDimension?: string;
            bytes: number;
        };
        InspectionDetailAnswer: {
            id: string;
            questionId: string;
            answerText: string | null;
            answerNumber: number | null;
            answerBoolean: boolean | null;
            answerDate: string | null;
            answerJson?: unknown;
            responseOptionId: string | null;
            templateOptionId: string | null;
            unitId: string | null;
            unitCategory: string | null;
            note: string | null;
            /** @description Extension: a flagged option was chosen, or a flag rule holds (as of the inspection's latest revision). */
            flagged: boolean;
            question: {
                id: string;
                text: string;
            };
            /** @description InspectionImage by default; InspectionImageRef with images=url. */
            images: (components["schemas"]["InspectionImage"] | components["schemas"]["InspectionImageRef"])[];
            /** @description Extension: the corrective actions raised on this answer's question. */
            actions: components["schemas"]["CorrectiveAction"][];
        };
        InspectionList: {
            inspections: (components["schemas"]["InspectionSummary"] & {
                /** @description Only with includeAnswers=true. */
                answers?: components["schemas"]["InspectionListAnswer"][];
            })[];
            pagination: {
                total: number;
                limit: number;
                offset: number;
                hasMore: boolean;
            };
        };
        InspectionDetail: components["schemas"]["InspectionSummary"] & {
            /** @description Extension: 1 for the import, one more for every accepted PATCH. The ETag header names it. */
            revision: number;
            answers: components["schemas"]["InspectionDetailAnswer"][];
        };
        InspectionRevision: {
            revision: number;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            createdAt: string;
            /** @enum {string} */
            status: "COMPLETED" | "IN_PROGRESS";
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            completedAt: string | null;
            actor: {
                /** @description api_key, user, ... */
                type: string;
                id: string | null;
            };
            /** @description The X-Request-Id of the request that made it. */
            requestId: string | null;
            changes: {
                /** @description Question ids answered for the first time. */
                added: string[];
                /** @description Question ids whose answer (value, note or images) changed. */
                changed: string[];
                /** @description Question ids whose answer was removed. */
                removed: string[];
                status?: {
                    from: string;
                    to: string;
                };
            };
        };
        InspectionRevisionList: {
            revisions: components["schemas"]["InspectionRevision"][];
        };
        InspectionImportResponse: {
            id: string;
            /** @example INS-000123 */
            inspectionNumber: string;
            message: string;
        };
        /** @description The import was accepted but is still being processed; retry with the same Idempotency-Key. */
        InspectionImportPending: {
            error: string;
            importId: string;
        };
        UploadedMedia: {
            /** Format: uuid */
            mediaId: string;
            url: string;
            mimeType: string;
            imgDimension: string;
            bytes: number;
            sha256: string;
        };
        InspectionComment: {
            id: string;
            /**
             * @description comment: anyone's; review: the comment a review carried; system: the service's own (an approved inspection changed).
             * @enum {string}
             */
            kind: "comment" | "review" | "system";
            /**
             * @description The state a review (or a system comment) set; null for a plain comment.
             * @enum {string|null}
             */
            reviewState: "RECEIVED" | "HAS_ISSUES" | "APPROVED" | "REJECTED" | null;
            body: string;
            author: {
                /** @description user, api_key, ... or system */
                type: string;
                id: string | null;
                /** @description A user's name. */
                name: string | null;
            };
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            createdAt: string;
        };
        InspectionCommentList: {
            comments: components["schemas"]["InspectionComment"][];
            pagination: {
                total: number;
                limit: number;
                offset: number;
                hasMore: boolean;
            };
        };
        InspectionReviewResponse: {
            inspectionId: string;
            /** @enum {string} */
            reviewState: "RECEIVED" | "HAS_ISSUES" | "APPROVED" | "REJECTED";
            /** @enum {string} */
            previousState: "RECEIVED" | "HAS_ISSUES" | "APPROVED" | "REJECTED";
            comment: components["schemas"]["InspectionComment"] & (Record<string, never> | null);
        };
        TemplateListItem: {
            id: string;
            title: string;
            initialTitle: string | null;
            /** @enum {string} */
            type: "ASSET" | "AUDIT";
            /** @enum {string} */
            status: "DRAFT" | "PUBLISHED" | "ARCHIVED";
            version: number;
            isActive: boolean;
            assetTypeId: string | null;
            /** @description Present only when an asset type is set. */
            assetType?: {
                id: string;
                name: string;
            };
            /** @description Named by the spec without a shape; always null here. */
            assetTypeMetadata?: unknown;
            organizationId: string;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            updatedAt: string;
            /** @description Extension: the draft of the next version waiting to be published (POST /api/templates/{id}/publish), if any. */
            draftVersion: number | null;
        };
        TemplateLogicRule: {
            id: string;
            order: number;
            /** @description A leaf {type, value} as the spec shows it, or (extension) a group as it was saved. */
            condition: {
                type: string;
                value?: unknown;
                sourceKey?: string;
            } | {
                all: unknown[];
            } | {
                any: unknown[];
            } | {
                not?: unknown;
            };
            actionType: string;
            triggeredQuestionId: string;
            triggeredQuestion: {
                id: string;
                text: string;
                position: number;
            };
        };
        TemplateTriggerRule: {
            id: string;
            order: number;
            /** @description A leaf {type, value} as the spec shows it, or (extension) a group as it was saved. */
            condition: {
                type: string;
                value?: unknown;
                sourceKey?: string;
            } | {
                all: unknown[];
            } | {
                any: unknown[];
            } | {
                not?: unknown;
            };
            questionId: string;
            question: {
                id: string;
                text: string;
                position: number;
            };
        };
        TemplateQuestion: {
            id: string;
            key: string | null;
            text: string;
            hint: string | null;
            required: boolean;
            position: number;
            responseType: {
                id: string;
                name: string;
                inputType: string;
                uiLabel: string | null;
            } | null;
            options: {
                id: string;
                label: string;
                value: string;
                position: number;
                /** @description Extension: an answer selecting it must carry a note. */
                requiresNote: boolean;
                /** @description Extension: an answer selecting it must carry media. */
                requiresPhoto: boolean;
                /** @description Extension: points for choosing it; null: not applicable; absent: no score. */
                score?: number | null;
                /** @description Extension: choosing it flags the answer. */
                flagged: boolean;
            }[];
            logicRules: components["schemas"]["TemplateLogicRule"][];
            triggerRule: components["schemas"]["TemplateTriggerRule"] & (Record<string, never> | null);
            /** @description Extension: every rule that shows this question; it is shown when any of them holds. */
            triggerRules: components["schemas"]["TemplateTriggerRule"][];
        };
        TemplateSection: {
            id: string;
            title: string;
            description: string | null;
            position: number;
            questions: components["schemas"]["TemplateQuestion"][];
        };
        TemplateDetail: components["schemas"]["TemplateListItem"] & {
            /** @description The version shown: the current one, or the one named by ?version. */
            version?: number;
            /**
             * @description Extension: the shown version's own status.
             * @enum {string}
             */
            versionStatus: "DRAFT" | "PUBLISHED" | "SUPERSEDED";
            /** @description Extension: the version the list and a detail without ?version show. */
            currentVersion: number;
            description: string | null;
            sections: components["schemas"]["TemplateSection"][];
            standaloneQuestions: components["schemas"]["TemplateQuestion"][];
        };
        CreateTemplateResponse: {
            /** @enum {boolean} */
            success: true;
            /** @description Says how many logic rules were skipped and why, when any were. */
            message: string;
            template: components["schemas"]["TemplateDetail"];
            /** @description Extension: one message per skipped logic rule (sourceKey or targetKey matching no question key). */
            skippedRules: string[];
        };
        TemplateVersionSummary: {
            version: number;
            /** @enum {string} */
            status: "DRAFT" | "PUBLISHED" | "SUPERSEDED";
            title: string;
            createdBy: string | null;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            publishedAt: string | null;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            supersededAt: string | null;
        };
        TemplateVersionList: {
            versions: components["schemas"]["TemplateVersionSummary"][];
        };
        /** @description A PDF report of an inspection and where its rendering stands. */
        InspectionReport: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            inspectionId: string;
            /** @enum {string} */
            status: "QUEUED" | "RUNNING" | "SUCCEEDED" | "FAILED";
            /**
             * @description The inspection's revision and a fingerprint of everything else the report prints
             * @example r3-5f0c2a9e1b7d
             */
            cacheKey: string;
            /** @example /api/inspections/0b6f1c1e-8c39-4f5e-9a43-2d0f8f2b1d77/reports/7d7c2f3a-9f1e-4c55-8a43-0f8f2b1d7711 */
            statusUrl: string;
            /**
             * @description GET it for the PDF once SUCCEEDED (while it is the inspection's current report); null before
             * @example /api/inspections/0b6f1c1e-8c39-4f5e-9a43-2d0f8f2b1d77/report.pdf
             */
            downloadUrl: string | null;
            pages: number | null;
            byteSize: number | null;
            /** @description FAILED: why the report could not be rendered */
            error: string | null;
            attempts: number;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            finishedAt: string | null;
        };
        /** @description The report is still being rendered after REPORT_WAIT_SECONDS: follow statusUrl, or send the same GET again after Retry-After. */
        InspectionReportPending: {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            status: "QUEUED" | "RUNNING";
            /** @example /api/inspections/0b6f1c1e-8c39-4f5e-9a43-2d0f8f2b1d77/reports/7d7c2f3a-9f1e-4c55-8a43-0f8f2b1d7711 */
            statusUrl: string;
            message: string;
        };
        InspectionReportFailed: {
            /** @example The report of INS-000042 could not be rendered: an image of the inspection is missing from the media store */
            error: string;
            /** Format: uuid */
            id: string;
            statusUrl: string;
        };
        InspectionExport: {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            format: "csv" | "xlsx";
            /** @enum {string} */
            status: "QUEUED" | "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELLED";
            /** @description The filter as the export applies it (bbox as its four numbers, instants in UTC). */
            filter: {
                templateId?: string;
                status?: string;
                siteId?: string;
                assetId?: string;
                reviewState?: string;
                flagged?: boolean;
                minScorePercentage?: number;
                maxScorePercentage?: number;
                bbox?: {
                    minLon: number;
                    minLat: number;
                    maxLon: number;
                    maxLat: number;
                };
                /**
                 * Format: date-time
                 * @example 2026-01-31T09:30:00.000Z
                 */
                createdSince?: string;
                /**
                 * Format: date-time
                 * @example 2026-01-31T09:30:00.000Z
                 */
                createdUntil?: string;
            };
            includeAnswers: boolean;
            /** @description Inspections written so far (every page of a few hundred). */
            rowsWritten: number;
            /** @example inspections-2026-11-25.csv */
            fileName: string | null;
            /** @description The file's size; null until SUCCEEDED. */
            byteSize: number | null;
            /** @description Why it FAILED. */
            error: string | null;
            createdBy: {
                type: string;
                id: string | null;
            };
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            startedAt: string | null;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            finishedAt: string | null;
            /**
             * Format: date-time
             * @description When the retention sweep deletes the export (file and status); set when it SUCCEEDED.
             * @example 2026-01-31T09:30:00.000Z
             */
            expiresAt: string | null;
            /** @example /api/exports/4d3c2b1a-0f9e-4d8c-b7a6-958473625140 */
            statusUrl: string;
            /**
             * @description Set once SUCCEEDED.
             * @example /api/exports/4d3c2b1a-0f9e-4d8c-b7a6-958473625140/download
             */
            downloadUrl: string | null;
        };
        InspectionExportAccepted: {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            status: "QUEUED" | "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELLED";
            statusUrl: string;
        };
        InspectionExportList: {
            exports: components["schemas"]["InspectionExport"][];
            pagination: {
                total: number;
                limit: number;
                offset: number;
                hasMore: boolean;
            };
        };
        EmployeeInput: {
            externalEmployeeId: string;
            /**
             * @default ACTIVE
             * @enum {string|null}
             */
            status?: "ACTIVE" | "INACTIVE" | "TERMINATED" | null;
            firstName?: string | null;
            lastName?: string | null;
            displayName?: string | null;
            /** Format: email */
            email?: string | null;
            phone?: string | null;
            jobTitle?: string | null;
            department?: string | null;
            supervisor?: {
                name?: string;
                email?: string;
            } | null;
            hireDate?: string | null;
            terminationDate?: string | null;
            metadata?: {
                [key: string]: unknown;
            } | null;
            roles?: string[] | null;
            groups?: components["schemas"]["EmployeeGroupAssignment"][] | null;
            sites?: components["schemas"]["EmployeeSiteAssignment"][] | null;
            userAccount?: components["schemas"]["EmployeeUserAccount"];
            /**
             * @default replace
             * @enum {string|null}
             */
            updateMode?: "replace" | "additive" | null;
        };
        /** @description groupName or externalGroupId (one is required); role: the member's role in the group. */
        EmployeeGroupAssignment: {
            groupName?: string;
            externalGroupId?: string;
            role?: string | null;
        };
        /** @description id: site UUID in the organization; role: site-level role. */
        EmployeeSiteAssignment: {
            id: string;
            role?: string | null;
        };
        EmployeeUserAccount: {
            username?: string | null;
            /** @default false */
            forcePasswordReset?: boolean;
            /** @default false */
            sendWelcomeEmail?: boolean;
        } | null;
        EmployeeSyncResult: {
            externalEmployeeId: string;
            /** @enum {string} */
            status: "CREATED" | "UPDATED";
            /** @description null only in a dry run for an employee that would be created */
            employeeId: string | null;
            /** @description null when the employee has no user account */
            userId: string | null;
            warnings: string[];
        };
        EmployeeSyncError: {
            externalEmployeeId: string | null;
            message: string;
        };
        EmployeeSyncResponse: {
            requestId: string;
            /** @description The request's syncBatchId; absent when none was sent */
            syncBatchId?: string;
            results: components["schemas"]["EmployeeSyncResult"][];
            errors: components["schemas"]["EmployeeSyncError"][];
        };
        EmployeeSyncAccepted: {
            requestId: string;
            /** @enum {string} */
            status: "processing";
        };
        EmployeeSyncStatus: {
            requestId: string;
            syncBatchId?: string;
            /** @enum {string} */
            status: "processing" | "completed";
            dryRun: boolean;
            total: number;
            processed: number;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            completedAt: string | null;
            results?: components["schemas"]["EmployeeSyncResult"][];
            errors?: components["schemas"]["EmployeeSyncError"][];
        };
        Employee: {
            id: string;
            externalEmployeeId: string;
            /** @enum {string} */
            status: "ACTIVE" | "INACTIVE" | "TERMINATED";
            firstName: string | null;
            lastName: string | null;
            displayName: string | null;
            email: string | null;
            phone: string | null;
            jobTitle: string | null;
            department: string | null;
            supervisor: {
                name?: string;
                email?: string;
            } | null;
            hireDate: string | null;
            terminationDate: string | null;
            metadata: {
                [key: string]: unknown;
            } | null;
            userId: string | null;
            /** @description null when the employee has no user account */
            accountEnabled: boolean | null;
            roles: string[];
            groups: {
                id: string;
                name: string;
                externalGroupId: string | null;
                memberRole: string | null;
            }[];
            sites: {
                id: string;
                name: string;
                code: string;
                siteRole: string | null;
            }[];
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            updatedAt: string;
        };
        EmployeeList: {
            employees: components["schemas"]["Employee"][];
            pagination: {
                total: number;
                limit: number;
                offset: number;
                hasMore: boolean;
            };
        };
        EmployeeErasure: {
            /** @description What the employee and their user account are called since: `erased-` and the start of the employee's id. */
            pseudonym: string;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            erasedAt: string;
            employee: components["schemas"]["Employee"] & unknown;
        };
        Site: {
            /** Format: uuid */
            id: string;
            name: string;
            code: string;
            address: string | null;
            latitude: number | null;
            longitude: number | null;
            /** Format: uuid */
            parentSiteId: string | null;
            archived: boolean;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            archivedAt: string | null;
            /** @description 1 when created, one more for every accepted change. The ETag header names it. */
            revision: number;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            updatedAt: string;
        };
        SiteList: {
            sites: components["schemas"]["Site"][];
            pagination: {
                total: number;
                limit: number;
                offset: number;
                hasMore: boolean;
            };
        };
        Group: {
            /** Format: uuid */
            id: string;
            name: string;
            externalGroupId: string | null;
            /** @description Employees assigned to the group. */
            memberCount: number;
            archived: boolean;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            archivedAt: string | null;
            /** @description 1 when created, one more for every accepted change. The ETag header names it. */
            revision: number;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            updatedAt: string;
        };
        GroupList: {
            groups: components["schemas"]["Group"][];
            pagination: {
                total: number;
                limit: number;
                offset: number;
                hasMore: boolean;
            };
        };
        GroupMember: {
            /** Format: uuid */
            employeeId: string;
            externalEmployeeId: string;
            name: string | null;
            email: string | null;
            /**
             * Format: uuid
             * @description The employee's user account.
             */
            userId: string | null;
            /** @description The member's role within the group (the sync's group role). */
            memberRole: string | null;
        };
        GroupMemberList: {
            members: components["schemas"]["GroupMember"][];
            pagination: {
                total: number;
                limit: number;
                offset: number;
                hasMore: boolean;
            };
        };
        Role: {
            /** Format: uuid */
            id: string;
            name: string;
            /** @description Employees who hold the role. */
            holders: number;
            archived: boolean;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            archivedAt: string | null;
            /** @description 1 when created, one more for every accepted change. The ETag header names it. */
            revision: number;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            updatedAt: string;
        };
        RoleList: {
            roles: components["schemas"]["Role"][];
            pagination: {
                total: number;
                limit: number;
                offset: number;
                hasMore: boolean;
            };
        };
        ResponseType: {
            /** Format: uuid */
            id: string;
            name: string;
            inputType: string;
            uiLabel: string | null;
            options: {
                /** Format: uuid */
                id: string;
                label: string;
                value: string;
                position: number;
                requiresNote: boolean;
                requiresPhoto: boolean;
            }[];
            /** @description Templates (any version) with a question of this type. */
            templates: number;
            archived: boolean;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            archivedAt: string | null;
            /** @description 1 when created, one more for every accepted change. The ETag header names it. */
            revision: number;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            updatedAt: string;
        };
        ResponseTypeList: {
            responseTypes: components["schemas"]["ResponseType"][];
            pagination: {
                total: number;
                limit: number;
                offset: number;
                hasMore: boolean;
            };
        };
        AssetType: {
            /** Format: uuid */
            id: string;
            name: string;
            fields: {
                name: string;
                /** @enum {string} */
                type: "text" | "number" | "date" | "boolean";
                required: boolean;
            }[];
            /** @description Assets of this type. */
            assets: number;
            /** @description Templates (any version) for assets of this type (their assetTypeId). */
            templates: number;
            archived: boolean;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            archivedAt: string | null;
            /** @description 1 when created, one more for every accepted change. The ETag header names it. */
            revision: number;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            updatedAt: string;
        };
        AssetTypeList: {
            assetTypes: components["schemas"]["AssetType"][];
            pagination: {
                total: number;
                limit: number;
                offset: number;
                hasMore: boolean;
            };
        };
        Asset: {
            /** Format: uuid */
            id: string;
            name: string;
            /** @description null only for assets made before /api/assets. */
            code: string | null;
            assetTypeId: string | null;
            siteId: string | null;
            /** @enum {string} */
            status: "ACTIVE" | "RETIRED";
            fields: {
                [key: string]: string | number | boolean;
            };
            metadata: {
                [key: string]: unknown;
            };
            /** @description Its newest inspection (by creation); null when it has none. */
            lastInspection: {
                id: string;
                inspectionNumber: string;
                status: string;
                /**
                 * Format: date-time
                 * @description When it was completed, or created when it is in progress.
                 * @example 2026-01-31T09:30:00.000Z
                 */
                date: string;
                conductedBy: {
                    id: string;
                    name: string | null;
                    email: string;
                };
            } | null;
            /**
             * @description The scheduled inspection due next for it (docs/schedules.md): its earliest UPCOMING, OPEN or LATE occurrence by due time (a LATE one first); null when none.
             * @example {
             *       "id": "7e1f0c2a-4b3d-4c5e-8f6a-9b0c1d2e3f4a",
             *       "scheduleId": "2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d",
             *       "state": "UPCOMING",
             *       "startAt": "2026-03-31T08:00:00.000Z",
             *       "dueAt": "2026-03-31T16:00:00.000Z"
             *     }
             */
            nextOccurrence: {
                /** Format: uuid */
                id: string;
                /** Format: uuid */
                scheduleId: string | null;
                /** @enum {string} */
                state: "UPCOMING" | "OPEN" | "LATE";
                /**
                 * Format: date-time
                 * @example 2026-01-31T09:30:00.000Z
                 */
                startAt: string;
                /**
                 * Format: date-time
                 * @example 2026-01-31T09:30:00.000Z
                 */
                dueAt: string;
            } | null;
            archived: boolean;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            archivedAt: string | null;
            /** @description 1 when created, one more for every accepted change. The ETag header names it. */
            revision: number;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            updatedAt: string;
        };
        AssetList: {
            assets: components["schemas"]["Asset"][];
            pagination: {
                total: number;
                limit: number;
                offset: number;
                hasMore: boolean;
            };
        };
        Schedule: {
            /** Format: uuid */
            id: string;
            name: string;
            /** Format: uuid */
            templateId: string;
            recurrence: components["schemas"]["ScheduleRecurrence"];
            timeZone: string;
            startDate: string;
            startTime: string;
            dueWithinMinutes: number;
            assignees: {
                userIds: string[];
                groupIds: string[];
                roleIds: string[];
                siteIds: string[];
            };
            target: {
                /** @enum {string} */
                kind: "none";
            } | {
                /** @enum {string} */
                kind: "sites";
                siteIds: string[];
            } | {
                /** @enum {string} */
                kind: "assets";
                assetTypeId?: string;
                siteId?: string;
            };
            /** @enum {string} */
            mustComplete: "ONE" | "ALL";
            canLateSubmit: boolean;
            reminderMinutesBefore: number | null;
            remindByEmail: boolean;
            leaverRule: {
                /** @enum {string} */
                kind: "site_manager";
            } | {
                /** @enum {string} */
                kind: "user";
                userId: string;
            } | {
                /** @enum {string} */
                kind: "unassigned";
            };
            paused: boolean;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            pausedAt: string | null;
            revision: number;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            updatedAt: string;
        };
        /** @description Either an RRULE, or the next one `afterCompletionDays` local days after the last was completed. */
        ScheduleRecurrence: {
            /**
             * @description An RFC 5545 RRULE value without DTSTART: FREQ DAILY, WEEKLY, MONTHLY or YEARLY, with INTERVAL, BYDAY, BYMONTHDAY, BYMONTH, BYSETPOS, COUNT, UNTIL.
             * @example FREQ=WEEKLY;BYDAY=MO,WE,FR
             */
            rrule: string;
        } | {
            afterCompletionDays: number;
        };
        ScheduleList: {
            schedules: components["schemas"]["Schedule"][];
            pagination: {
                total: number;
                limit: number;
                offset: number;
                hasMore: boolean;
            };
        };
        ScheduleUpcoming: {
            timeZone: string;
            upcoming: {
                /**
                 * Format: date-time
                 * @example 2026-01-31T09:30:00.000Z
                 */
                startAt: string;
                /**
                 * Format: date-time
                 * @example 2026-01-31T09:30:00.000Z
                 */
                dueAt: string;
                localStart: string;
                localDue: string;
            }[];
        };
        Occurrence: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            scheduleId: string | null;
            scheduleName: string | null;
            /** Format: uuid */
            templateId: string | null;
            templateVersion: number | null;
            /** Format: uuid */
            siteId: string | null;
            /** Format: uuid */
            assetId: string | null;
            /** @enum {string} */
            state: "UPCOMING" | "OPEN" | "COMPLETED" | "MISSED" | "LATE" | "COMPLETED_LATE";
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            startAt: string;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            dueAt: string;
            localStart: string;
            localDue: string;
            /** @enum {string} */
            mustComplete: "ONE" | "ALL";
            assigneeUserIds: string[];
            completedByUserIds: string[];
            needsAssignee: boolean;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            startedAt: string | null;
            /** Format: uuid */
            inspectionId: string | null;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            completedAt: string | null;
        };
        OccurrenceList: {
            occurrences: components["schemas"]["Occurrence"][];
            pagination: {
                total: number;
                limit: number;
                offset: number;
                hasMore: boolean;
            };
        };
        User: {
            /** Format: uuid */
            id: string;
            email: string;
            username: string;
            name: string | null;
            isAdmin: boolean;
            /** @description A disabled user cannot sign in and their tokens are refused. */
            disabled: boolean;
            /** @description true until the user has chosen a password (after an invitation). */
            mustResetPassword: boolean;
            /**
             * Format: uuid
             * @description The employee record (HR sync) this user belongs to; null: none.
             */
            employeeId: string | null;
            /** @description That employee's id in the HR system. */
            externalEmployeeId: string | null;
            /** @description true when linked to an employee: the HR sync owns hrOwnedFields. */
            managedByHrSync: boolean;
            /** @description Fields the HR sync writes for this user (name, email, disabled); empty when not linked. */
            hrOwnedFields: string[];
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            updatedAt: string;
        };
        InvitedUser: components["schemas"]["User"] & {
            /** @description The welcome mail with a temporary password is on its way. */
            welcomeMailQueued: boolean;
        };
        UserList: {
            users: components["schemas"]["User"][];
            pagination: {
                total: number;
                limit: number;
                offset: number;
                hasMore: boolean;
            };
        };
        TemplateFeed: {
            items: {
                /**
                 * @description One of: created, published, archived, draft_created.
                 * @enum {string}
                 */
                change: "created" | "published" | "archived" | "draft_created";
                /**
                 * Format: date-time
                 * @description When the change was made (its transaction's start).
                 * @example 2026-01-31T09:30:00.000Z
                 */
                at: string;
                /** Format: uuid */
                id: string;
                resource: components["schemas"]["TemplateListItem"] & (Record<string, never> | null);
            }[];
            /** @description Pass as cursor to read on; also when hasMore is false (changes made later appear after it). */
            nextCursor: string;
            hasMore: boolean;
        };
        InspectionFeed: {
            items: {
                /**
                 * @description One of: created, updated, completed, reviewed.
                 * @enum {string}
                 */
                change: "created" | "updated" | "completed" | "reviewed";
                /**
                 * Format: date-time
                 * @description When the change was made (its transaction's start).
                 * @example 2026-01-31T09:30:00.000Z
                 */
                at: string;
                /** Format: uuid */
                id: string;
                resource: components["schemas"]["InspectionSummary"] & (Record<string, never> | null);
            }[];
            /** @description Pass as cursor to read on; also when hasMore is false (changes made later appear after it). */
            nextCursor: string;
            hasMore: boolean;
        };
        EmployeeFeed: {
            items: {
                /**
                 * @description One of: created, updated, deactivated, erased.
                 * @enum {string}
                 */
                change: "created" | "updated" | "deactivated" | "erased";
                /**
                 * Format: date-time
                 * @description When the change was made (its transaction's start).
                 * @example 2026-01-31T09:30:00.000Z
                 */
                at: string;
                /** Format: uuid */
                id: string;
                resource: components["schemas"]["Employee"] & (Record<string, never> | null);
            }[];
            /** @description Pass as cursor to read on; also when hasMore is false (changes made later appear after it). */
            nextCursor: string;
            hasMore: boolean;
        };
        CorrectiveActionFeed: {
            items: {
                /**
                 * @description One of: created, updated, completed, overdue.
                 * @enum {string}
                 */
                change: "created" | "updated" | "completed" | "overdue";
                /**
                 * Format: date-time
                 * @description When the change was made (its transaction's start).
                 * @example 2026-01-31T09:30:00.000Z
                 */
                at: string;
                /** Format: uuid */
                id: string;
                resource: components["schemas"]["CorrectiveAction"] & (Record<string, never> | null);
            }[];
            /** @description Pass as cursor to read on; also when hasMore is false (changes made later appear after it). */
            nextCursor: string;
            hasMore: boolean;
        };
        SiteFeed: {
            items: {
                /**
                 * @description One of: created, updated, archived, deleted.
                 * @enum {string}
                 */
                change: "created" | "updated" | "archived" | "deleted";
                /**
                 * Format: date-time
                 * @description When the change was made (its transaction's start).
                 * @example 2026-01-31T09:30:00.000Z
                 */
                at: string;
                /** Format: uuid */
                id: string;
                resource: components["schemas"]["Site"] & (Record<string, never> | null);
            }[];
            /** @description Pass as cursor to read on; also when hasMore is false (changes made later appear after it). */
            nextCursor: string;
            hasMore: boolean;
        };
        GroupFeed: {
            items: {
                /**
                 * @description One of: created, updated, archived, deleted.
                 * @enum {string}
                 */
                change: "created" | "updated" | "archived" | "deleted";
                /**
                 * Format: date-time
                 * @description When the change was made (its transaction's start).
                 * @example 2026-01-31T09:30:00.000Z
                 */
                at: string;
                /** Format: uuid */
                id: string;
                resource: components["schemas"]["Group"] & (Record<string, never> | null);
            }[];
            /** @description Pass as cursor to read on; also when hasMore is false (changes made later appear after it). */
            nextCursor: string;
            hasMore: boolean;
        };
        RoleFeed: {
            items: {
                /**
                 * @description One of: created, updated, archived, deleted.
                 * @enum {string}
                 */
                change: "created" | "updated" | "archived" | "deleted";
                /**
                 * Format: date-time
                 * @description When the change was made (its transaction's start).
                 * @example 2026-01-31T09:30:00.000Z
                 */
                at: string;
                /** Format: uuid */
                id: string;
                resource: components["schemas"]["Role"] & (Record<string, never> | null);
            }[];
            /** @description Pass as cursor to read on; also when hasMore is false (changes made later appear after it). */
            nextCursor: string;
            hasMore: boolean;
        };
        ResponseTypeFeed: {
            items: {
                /**
                 * @description One of: created, updated, archived, deleted.
                 * @enum {string}
                 */
                change: "created" | "updated" | "archived" | "deleted";
                /**
                 * Format: date-time
                 * @description When the change was made (its transaction's start).
                 * @example 2026-01-31T09:30:00.000Z
                 */
                at: string;
                /** Format: uuid */
                id: string;
                resource: components["schemas"]["ResponseType"] & (Record<string, never> | null);
            }[];
            /** @description Pass as cursor to read on; also when hasMore is false (changes made later appear after it). */
            nextCursor: string;
            hasMore: boolean;
        };
        AssetTypeFeed: {
            items: {
                /**
                 * @description One of: created, updated, archived, deleted.
                 * @enum {string}
                 */
                change: "created" | "updated" | "archived" | "deleted";
                /**
                 * Format: date-time
                 * @description When the change was made (its transaction's start).
                 * @example 2026-01-31T09:30:00.000Z
                 */
                at: string;
                /** Format: uuid */
                id: string;
                resource: components["schemas"]["AssetType"] & (Record<string, never> | null);
            }[];
            /** @description Pass as cursor to read on; also when hasMore is false (changes made later appear after it). */
            nextCursor: string;
            hasMore: boolean;
        };
        AssetFeed: {
            items: {
                /**
                 * @description One of: created, updated, archived, deleted.
                 * @enum {string}
                 */
                change: "created" | "updated" | "archived" | "deleted";
                /**
                 * Format: date-time
                 * @description When the change was made (its transaction's start).
                 * @example 2026-01-31T09:30:00.000Z
                 */
                at: string;
                /** Format: uuid */
                id: string;
                resource: components["schemas"]["Asset"] & (Record<string, never> | null);
            }[];
            /** @description Pass as cursor to read on; also when hasMore is false (changes made later appear after it). */
            nextCursor: string;
            hasMore: boolean;
        };
        UserFeed: {
            items: {
                /**
                 * @description One of: created, updated, disabled, enabled.
                 * @enum {string}
                 */
                change: "created" | "updated" | "disabled" | "enabled";
                /**
                 * Format: date-time
                 * @description When the change was made (its transaction's start).
                 * @example 2026-01-31T09:30:00.000Z
                 */
                at: string;
                /** Format: uuid */
                id: string;
                resource: components["schemas"]["User"] & (Record<string, never> | null);
            }[];
            /** @description Pass as cursor to read on; also when hasMore is false (changes made later appear after it). */
            nextCursor: string;
            hasMore: boolean;
        };
        OccurrenceFeed: {
            items: {
                /**
                 * @description One of: opened, due_soon, missed, started, completed, reassigned.
                 * @enum {string}
                 */
                change: "opened" | "due_soon" | "missed" | "started" | "completed" | "reassigned";
                /**
                 * Format: date-time
                 * @description When the change was made (its transaction's start).
                 * @example 2026-01-31T09:30:00.000Z
                 */
                at: string;
                /** Format: uuid */
                id: string;
                resource: components["schemas"]["Occurrence"] & (Record<string, never> | null);
            }[];
            /** @description Pass as cursor to read on; also when hasMore is false (changes made later appear after it). */
            nextCursor: string;
            hasMore: boolean;
        };
        WebhookEndpoint: {
            /** Format: uuid */
            id: string;
            url: string;
            events: ("template.created" | "template.published" | "template.archived" | "template.draft_created" | "inspection.created" | "inspection.updated" | "inspection.completed" | "inspection.reviewed" | "action.created" | "action.updated" | "action.completed" | "action.overdue" | "employee.created" | "employee.updated" | "employee.deactivated" | "employee.erased" | "sync.request.completed" | "api_key.created" | "api_key.revoked" | "oauth_client.created" | "oauth_client.rotated" | "oauth_client.revoked" | "user.created" | "user.updated" | "user.disabled" | "user.enabled" | "site.created" | "site.updated" | "site.archived" | "site.deleted" | "group.created" | "group.updated" | "group.archived" | "group.deleted" | "role.created" | "role.updated" | "role.archived" | "role.deleted" | "response_type.created" | "response_type.updated" | "response_type.archived" | "response_type.deleted" | "asset_type.created" | "asset_type.updated" | "asset_type.archived" | "asset_type.deleted" | "asset.created" | "asset.updated" | "asset.archived" | "asset.deleted" | "schedule.created" | "schedule.updated" | "schedule.deleted" | "occurrence.opened" | "occurrence.due_soon" | "occurrence.missed" | "occurrence.completed" | "occurrence.reassigned")[];
            description: string | null;
            enabled: boolean;
            /** @description Why the service disabled it (410 Gone, failing for 5 days); null otherwise. */
            disabledReason: string | null;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            updatedAt: string;
        };
        CreatedWebhookEndpoint: components["schemas"]["WebhookEndpoint"] & {
            /**
             * @description The signing secret (whsec_...). Shown only in this answer.
             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
             */
            secret: string;
        };
        RotatedWebhookSecret: {
            /**
             * @description The signing secret (whsec_...). Shown only in this answer.
             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
             */
            secret: string;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            previousSecretExpiresAt: string;
        };
        WebhookDeliveries: {
            deliveries: {
                /** Format: uuid */
                id: string;
                /**
                 * Format: uuid
                 * @description The webhook-id header of every attempt.
                 */
                eventId: string;
                /** @enum {string} */
                eventType: "template.created" | "template.published" | "template.archived" | "template.draft_created" | "inspection.created" | "inspection.updated" | "inspection.completed" | "inspection.reviewed" | "action.created" | "action.updated" | "action.completed" | "action.overdue" | "employee.created" | "employee.updated" | "employee.deactivated" | "employee.erased" | "sync.request.completed" | "api_key.created" | "api_key.revoked" | "oauth_client.created" | "oauth_client.rotated" | "oauth_client.revoked" | "user.created" | "user.updated" | "user.disabled" | "user.enabled" | "site.created" | "site.updated" | "site.archived" | "site.deleted" | "group.created" | "group.updated" | "group.archived" | "group.deleted" | "role.created" | "role.updated" | "role.archived" | "role.deleted" | "response_type.created" | "response_type.updated" | "response_type.archived" | "response_type.deleted" | "asset_type.created" | "asset_type.updated" | "asset_type.archived" | "asset_type.deleted" | "asset.created" | "asset.updated" | "asset.archived" | "asset.deleted" | "schedule.created" | "schedule.updated" | "schedule.deleted" | "occurrence.opened" | "occurrence.due_soon" | "occurrence.missed" | "occurrence.completed" | "occurrence.reassigned";
                /** @enum {string} */
                status: "pending" | "succeeded" | "failed";
                /** @description Why it failed for good: no success after the last attempt, or the endpoint was disabled (and why). */
                failureReason: string | null;
                /**
                 * Format: date-time
                 * @example 2026-01-31T09:30:00.000Z
                 */
                createdAt: string;
                /**
                 * Format: date-time
                 * @example 2026-01-31T09:30:00.000Z
                 */
                nextAttemptAt: string | null;
                attempts: {
                    attempt: number;
                    statusCode: number | null;
                    durationMs: number;
                    /** @description The first 1 KB of the receiver's answer. */
                    response: string | null;
                    error: string | null;
                    /**
                     * Format: date-time
                     * @example 2026-01-31T09:30:00.000Z
                     */
                    at: string;
                }[];
            }[];
            pagination: {
                limit: number;
                offset: number;
                hasMore: boolean;
            };
        };
        WebhookReplay: {
            replayed: number;
            /** @description Always false: a replay past WEBHOOK_REPLAY_MAX_DELIVERIES is refused (422) instead of cut short. */
            hasMore: boolean;
        };
        /** @description Every error is JSON: `{error}`, plus `details` (one message per violation) where the spec says. */
        WebhookReplayTooLarge: components["schemas"]["Error"] & {
            /** @description WEBHOOK_REPLAY_MAX_DELIVERIES */
            limit: number;
            /**
             * Format: date-time
             * @description An until that keeps the window within the limit: replay since..until, then from until on.
             * @example 2026-01-31T09:30:00.000Z
             */
            until: string;
        };
        ApiKey: {
            /** Format: uuid */
            id: string;
            name: string;
            /**
             * @description The key's first 12 characters, to recognise it; the key itself is never shown again.
             * @example isk_Qm9vZ3Vz
             */
            prefix: string;
            scopes: ("templates:read" | "templates:write" | "inspections:read" | "inspections:write" | "actions:read" | "actions:write" | "media:read" | "media:write" | "webhooks:manage" | "audit:read" | "feeds:read" | "employees:read" | "directory:read" | "directory:write" | "employees:erase" | "schedules:read" | "schedules:write" | "sync-sessions:manage" | "users:manage" | "credentials:manage")[];
            /**
             * @description revoked wins over expired.
             * @enum {string}
             */
            status: "active" | "expired" | "revoked";
            /** @description Who created it: an API key's id, a user's id, or the operator's admin CLI (id null). */
            createdBy: {
                /** @description api_key, user or admin_cli */
                type: string;
                id: string | null;
            };
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description Recorded at most once a minute.
             * @example 2026-01-31T09:30:00.000Z
             */
            lastUsedAt: string | null;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            expiresAt: string | null;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            revokedAt: string | null;
        };
        CreatedApiKey: components["schemas"]["ApiKey"] & {
            /**
             * @description The key. Shown only in this answer: store it now.
             * @example isk_Qm9vZ3VzRXhhbXBsZUtleU5vdFJlYWwxMjM0NTY3ODk
             */
            apiKey: string;
        };
        OAuthClient: {
            /**
             * Format: uuid
             * @description The id webhook events name it by. The audit log names it by clientId (resourceId), as it names the client when the client acts (actor id).
             */
            id: string;
            /** @example icl_3q2mP0x9Yb7kLw1s */
            clientId: string;
            name: string;
            scopes: ("employees:sync" | "scim")[];
            /** @enum {string} */
            status: "active" | "revoked";
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description When it last got a token (recorded at most once a minute).
             * @example 2026-01-31T09:30:00.000Z
             */
            lastUsedAt: string | null;
            /**
             * Format: date-time
             * @description After a rotation: until when the previous secret is still accepted. null: only the current secret is.
             * @example 2026-01-31T09:30:00.000Z
             */
            previousSecretExpiresAt: string | null;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            revokedAt: string | null;
        };
        CreatedOAuthClient: components["schemas"]["OAuthClient"] & {
            /**
             * @description The client secret. Shown only in this answer: store it now.
             * @example ics_c2VjcmV0RXhhbXBsZU5vdFJlYWwxMjM0NTY3ODkwYWJj
             */
            clientSecret: string;
        };
        ApiKeyList: {
            apiKeys: components["schemas"]["ApiKey"][];
            pagination: {
                total: number;
                limit: number;
                offset: number;
                hasMore: boolean;
            };
        };
        OAuthClientList: {
            oauthClients: components["schemas"]["OAuthClient"][];
            pagination: {
                total: number;
                limit: number;
                offset: number;
                hasMore: boolean;
            };
        };
        AuditPage: {
            items: {
                /** Format: uuid */
                id: string;
                /**
                 * Format: date-time
                 * @example 2026-01-31T09:30:00.000Z
                 */
                at: string;
                actor: {
                    /** @enum {string} */
                    type: "api_key" | "oauth_client" | "user" | "admin_cli" | "anonymous";
                    id: string | null;
                };
                action: string;
                resourceType: string;
                resourceId: string | null;
                /** @description Names of the changed fields; never their values. */
                changedFields: string[];
                requestId: string | null;
            }[];
            nextCursor: string | null;
            hasMore: boolean;
        };
        SyncSession: {
            sessionId: string;
            /** @enum {string} */
            status: "open" | "quarantined" | "committing" | "committed" | "cancelled" | "expired";
            scope: components["schemas"]["SyncSessionScope"];
            /** @description Batches sent with this session. */
            batches: number;
            /** @description Distinct externalEmployeeIds its batches named. */
            employeesSeen: number;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            expiresAt: string;
            /**
             * Format: date-time
             * @example 2026-01-31T09:30:00.000Z
             */
            committedAt: string | null;
            /** @description The sync request applying its deactivations (GET /api/v1/sync/requests/{requestId}). */
            requestId: string | null;
            /** @description Committing or committed: who it deactivates. */
            deactivated?: {
                employeeId: string;
                externalEmployeeId: string;
                displayName: string | null;
            }[];
            /** @description Quarantined: who it would deactivate once approved. */
            wouldDeactivate?: {
                employeeId: string;
                externalEmployeeId: string;
                displayName: string | null;
            }[];
            activeInScope?: number;
            /** @description The deletion guard: more than `percent` % of the ACTIVE employees in scope and more than `min` of them quarantine a commit. */
            threshold?: {
                percent: number;
                min: number;
            };
        };
        /** @description The employees the session speaks for; several fields narrow it together. Absent or {}: every employee of the organization. */
        SyncSessionScope: {
            /** @description Employees of this department (compared without case). */
            department?: string;
            /** @description Employees assigned to this site. */
            siteId?: string;
            /** @description Employees whose metadata has this key (with this value, when given). */
            metadata?: {
                key: string;
                value?: string;
            };
        };
        SyncSessionCommitPreview: components["schemas"]["SyncSession"] & {
            wouldDeactivate: {
                employeeId: string;
                externalEmployeeId: string;
                displayName: string | null;
            }[];
            /** @enum {boolean} */
            dryRun: true;
            wouldQuarantine: boolean;
        };
        /** @description RFC 7644 section 3.12 */
        ScimError: {
            schemas: string[];
            status: string;
            scimType?: string;
            detail: string;
        };
        /** @description RFC 7643 section 4.1 with the enterprise extension (section 4.3). */
        ScimUser: {
            schemas: string[];
            /** @description The employee's id (read-only). */
            id?: string;
            /** @description The employee's externalEmployeeId (without one, userName is used). */
            externalId?: string;
            /** @description The account's username, unique in the organization. */
            userName: string;
            name?: {
                givenName?: string;
                familyName?: string;
            } & {
                [key: string]: unknown;
            };
            displayName?: string;
            title?: string;
            /** @description false: the employee is INACTIVE (a TERMINATED one stays TERMINATED) and its account disabled; left out of a PUT: the status stays. */
            active?: boolean;
            /** @description The employee's e-mail (the work one). A User created or replaced needs one, here or as a userName that is an e-mail address: its account is made with it. */
            emails?: ({
                value: string;
                type?: string;
                primary?: boolean;
            } & {
                [key: string]: unknown;
            })[];
            phoneNumbers?: ({
                value: string;
                type?: string;
            } & {
                [key: string]: unknown;
            })[];
            "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"?: {
                department?: string;
                employeeNumber?: string;
                manager?: {
                    value: string;
                } & {
                    [key: string]: unknown;
                };
            } & {
                [key: string]: unknown;
            };
            meta?: {
                resourceType: string;
                created: string;
                lastModified: string;
                location: string;
                version: string;
            };
        } & {
            [key: string]: unknown;
        };
        ScimGroup: {
            schemas: string[];
            id?: string;
            externalId?: string;
            displayName: string;
            members?: ({
                value: string;
                display?: string;
            } & {
                [key: string]: unknown;
            })[];
            meta?: {
                resourceType: string;
                created: string;
                lastModified: string;
                location: string;
                version: string;
            };
        } & {
            [key: string]: unknown;
        };
        ScimPatchOp: {
            /**
             * @example [
             *       "urn:ietf:params:scim:api:messages:2.0:PatchOp"
             *     ]
             */
            schemas: string[];
            Operations: {
                /** @description add, remove or replace (any case) */
                op: string;
                path?: string;
                value?: unknown;
            }[];
        };
        Readiness: {
            /** @enum {string} */
            status: "ready" | "unavailable";
            /** @example up */
            postgres: string;
            /** @example up */
            redis: string;
        };
        TokenRequest: {
            grant_type: string;
            client_id?: string;
            client_secret?: string;
            scope?: string;
        };
        LoginRequest: {
            email: string;
            password: string;
        };
        PasswordChangeRequest: {
            currentPassword: string;
            newPassword: string;
        };
        ActionCreateRequest: {
            title: string;
            description?: string | null;
            /**
             * Format: uuid
             * @description A user of the organization (admin or inspector); null: nobody.
             */
            assigneeId?: string | null;
            /**
             * Format: date-time
             * @description When it is due; once past while OPEN or IN_PROGRESS the action is overdue. null: no due date.
             */
            dueAt?: string | null;
            /**
             * @default MEDIUM
             * @enum {string}
             */
            priority?: "LOW" | "MEDIUM" | "HIGH";
            /**
             * Format: uuid
             * @description The inspection it follows up, of the caller's organization.
             */
            inspectionId?: string;
            /**
             * Format: uuid
             * @description Only with inspectionId: a question of that inspection's template version.
             */
            questionId?: string;
        };
        ActionPatchRequest: {
            title?: string;
            description?: string | null;
            /**
             * Format: uuid
             * @description A user of the organization (admin or inspector); null: nobody.
             */
            assigneeId?: string | null;
            /**
             * Format: date-time
             * @description When it is due; once past while OPEN or IN_PROGRESS the action is overdue. null: no due date.
             */
            dueAt?: string | null;
            /** @enum {string} */
            priority?: "LOW" | "MEDIUM" | "HIGH";
            /**
             * @description OPEN -> IN_PROGRESS -> DONE, OPEN -> DONE, OPEN or IN_PROGRESS -> CANCELLED; DONE and CANCELLED may be reopened (OPEN or IN_PROGRESS). Any other move is a 409.
             * @enum {string}
             */
            status?: "OPEN" | "IN_PROGRESS" | "DONE" | "CANCELLED";
        };
        InspectionPatchRequest: {
            /**
             * @description IN_PROGRESS -> COMPLETED completes it (every visible required question must then be answered). A COMPLETED inspection never goes back (409).
             * @enum {string}
             */
            status?: "COMPLETED" | "IN_PROGRESS";
            /**
             * Format: date-time
             * @description Default when completing: now. Not allowed while IN_PROGRESS.
             */
            completedAt?: string;
            /** @description Each replaces the answer to its question (value, note and images: list the mediaIds to keep), or adds one. */
            answers?: components["schemas"]["InspectionImportAnswer"][];
            /** @description Question ids whose answer is removed. */
            removeAnswers?: string[];
            /**
             * @description Extension: where it took place; null removes it.
             * @example {
             *       "latitude": 52.5163,
             *       "longitude": 13.3777,
             *       "accuracyMeters": 12
             *     }
             */
            location?: {
                latitude: number;
                longitude: number;
                accuracyMeters?: number;
            } | null;
            /**
             * Format: uuid
             * @description Extension: the OPEN or LATE occurrence of a schedule this inspection does (docs/schedules.md). IN_PROGRESS marks it started, COMPLETED completes it; its template, and its site or asset when it has one, must match (400 naming occurrenceId).
             */
            occurrenceId?: string;
        };
        InspectionImportAnswer: {
            questionId: string;
            answerText?: string | null;
            answerNumber?: number | null;
            answerBoolean?: boolean | null;
            /** @description ISO 8601 date or date-time */
            answerDate?: string | null;
            /** @description Any JSON; an array holds at most 1000 items. A choice answer may list its options here (ids or values). */
            answerJson?: unknown;
            responseOptionId?: string | null;
            templateOptionId?: string | null;
            unitId?: string | null;
            unitCategory?: string | null;
            note?: string | null;
            /** @description Images as base64 strings or data URLs (JPEG, PNG, WebP, GIF); at most MEDIA_MAX_IMAGE_MB each. */
            media?: string[];
            /** @description Extension: images uploaded before with POST /api/media, by their mediaId; after the `media` images. */
            mediaIds?: string[];
            /** @description Extension: corrective actions this answer raises, created with the inspection (in a PATCH: added to those it has). They satisfy require_action rules. */
            actions?: components["schemas"]["AnswerActionInput"][];
        };
        AnswerActionInput: {
            title: string;
            description?: string | null;
            /**
             * Format: uuid
             * @description A user of the organization (admin or inspector); null: nobody.
             */
            assigneeId?: string | null;
            /**
             * Format: date-time
             * @description When it is due; once past while OPEN or IN_PROGRESS the action is overdue. null: no due date.
             */
            dueAt?: string | null;
            /**
             * @description Default MEDIUM.
             * @enum {string}
             */
            priority?: "LOW" | "MEDIUM" | "HIGH";
        };
        InspectionImportRequest: {
            templateId: string;
            conductedBy: string;
            siteId?: string | null;
            assetId?: string | null;
            assetName?: string | null;
            /**
             * @default COMPLETED
             * @enum {string}
             */
            status?: "COMPLETED" | "IN_PROGRESS";
            /**
             * Format: date-time
             * @description Default: completedAt, else the import time.
             */
            startedAt?: string;
            /**
             * Format: date-time
             * @description Default for COMPLETED: the import time. Not allowed for IN_PROGRESS.
             */
            completedAt?: string;
            answers: components["schemas"]["InspectionImportAnswer"][];
            /**
             * @description Extension: where it took place.
             * @example {
             *       "latitude": 52.5163,
             *       "longitude": 13.3777,
             *       "accuracyMeters": 12
             *     }
             */
            location?: {
                latitude: number;
                longitude: number;
                accuracyMeters?: number;
            } | null;
            /**
             * Format: uuid
             * @description Extension: the OPEN or LATE occurrence of a schedule this inspection does (docs/schedules.md). IN_PROGRESS marks it started, COMPLETED completes it; its template, and its site or asset when it has one, must match (400 naming occurrenceId).
             */
            occurrenceId?: string;
        };
        InspectionReviewRequest: {
            /** @enum {string} */
            state: "RECEIVED" | "HAS_ISSUES" | "APPROVED" | "REJECTED";
            /** @description Required (not blank) for HAS_ISSUES and REJECTED. */
            comment?: string;
        };
        InspectionCommentRequest: {
            body: string;
        };
        /** @description At most 200 sections, 5000 questions in all, 500 inline options per question and 5000 logic rules; every limit past is a 400 naming it. A template's options, inline and copied from response types together, have a limit too (docs/templates.md, Size limits). */
        CreateTemplateRequest: {
            /** @description User id in the caller's organization. Required with an API key; with a user token the caller is the creator. */
            createdBy?: string;
            name: string;
            /** @enum {string} */
            type: "ASSET" | "AUDIT";
            description?: string | null;
            assetTypeId?: string | null;
            /** @default [] */
            sections?: components["schemas"]["TemplateSectionInput"][];
            /**
             * @description Standalone questions (outside any section). Deprecated by the spec, still accepted.
             * @default []
             */
            questions?: components["schemas"]["TemplateQuestionInput"][];
            /** @default [] */
            logicRules?: components["schemas"]["TemplateLogicRuleInput"][];
        };
        TemplateSectionInput: {
            title: string;
            description?: string | null;
            /** @default [] */
            questions?: components["schemas"]["TemplateQuestionInput"][];
        };
        TemplateQuestionInput: {
            /** @description Unique within the body; needed by questions that take part in a logic rule. */
            key?: string;
            text: string;
            /** @default false */
            required?: boolean;
            /** @description Organization-defined response type. Its options are copied into the template with ids of their own. */
            responseTypeId?: string | null;
            hint?: string | null;
            /** @description Extension: inline options of a choice question; they replace the response type's options. Without responseTypeId the question is a SELECT. */
            options?: {
                label: string;
                value: string;
                requiresNote?: boolean;
                requiresPhoto?: boolean;
                /** @description Extension: points for choosing it; null: not applicable (the question leaves the inspection's score). A question's maximum is the highest score among its options (docs/scoring.md). */
                score?: number | null;
                /** @description Extension: choosing it flags the answer (default false). */
                flagged?: boolean;
            }[];
        };
        TemplateLogicRuleInput: {
            sourceKey: string;
            /** @description Required for ask_questions; for the answer rules the default is sourceKey. */
            targetKey?: string;
            condition: components["schemas"]["TemplateCondition"];
            /**
             * @description ask_questions (show the target), or the extensions require_note, require_photo, require_action, flag (act on the target's answer).
             * @default ask_questions
             */
            actionType?: string;
            order?: number;
        };
        /** @description Exactly one of type, all, any, not. */
        TemplateCondition: {
            /** @description A leaf's comparison: equals, is_not_equals, is_selected, is_not_selected, is_one_of, is_not_one_of, is_empty, is_not_empty, greater_than, less_than, greater_than_or_equal, less_than_or_equal, between, before, after, contains, not_contains, starts_with (docs/templates.md, Logic). */
            type?: string;
            /** @description Compared value; for choice questions an option value or id. A list (or comma-separated string) for is_one_of / is_not_one_of; [low, high] for between. */
            value?: unknown;
            /** @description Extension: the question this leaf reads (default: the rule's sourceKey). */
            sourceKey?: string;
            /** @description Extension: holds when every condition listed holds. */
            all?: unknown[];
            /** @description Extension: holds when at least one condition listed holds. */
            any?: unknown[];
            /** @description Extension: holds when the condition given does not. */
            not?: unknown;
        };
        CreateExportBody: {
            /** @enum {string} */
            format: "csv" | "xlsx";
            filter?: components["schemas"]["ExportFilter"];
            /**
             * @description One column per question of the template (filter.templateId is then required).
             * @default false
             */
            includeAnswers?: boolean;
        };
        /** @default {} */
        ExportFilter: {
            /**
             * Format: uuid
             * @description Only this template's inspections (any version). Needed for includeAnswers.
             */
            templateId?: string;
            /** @enum {string} */
            status?: "COMPLETED" | "IN_PROGRESS";
            /** Format: uuid */
            siteId?: string;
            /** Format: uuid */
            assetId?: string;
            /** @enum {string} */
            reviewState?: "RECEIVED" | "HAS_ISSUES" | "APPROVED" | "REJECTED";
            /** @description true: inspections with at least one flagged answer; false: without. */
            flagged?: boolean;
            /** @description Only inspections whose scorePercentage is at least this (inspections without a score never match). */
            minScorePercentage?: number;
            /** @description Only inspections whose scorePercentage is at most this (inspections without a score never match). */
            maxScorePercentage?: number;
            /**
             * @description Extension: minLon,minLat,maxLon,maxLat (WGS 84 degrees, edges included); only inspections with a location inside. minLon above maxLon crosses the antimeridian.
             * @example 13.08,52.33,13.76,52.68
             */
            bbox?: string;
            /**
             * Format: date-time
             * @description Only inspections received (createdAt) at or after this instant.
             */
            createdSince?: string;
            /**
             * Format: date-time
             * @description Only inspections received (createdAt) before this instant.
             */
            createdUntil?: string;
        };
        EmployeeSyncRequest: {
            /** @description Echoed in the response; null is the same as absent */
            syncBatchId?: string | null;
            employees: components["schemas"]["EmployeeInput"][];
        };
        SiteCreateRequest: {
            name: string;
            /** @description Unique within the organization (archived sites included). */
            code: string;
            address?: string | null;
            latitude?: number | null;
            longitude?: number | null;
            /**
             * Format: uuid
             * @description A site of the organization this one belongs to (a region); null: none. Never a cycle.
             */
            parentSiteId?: string | null;
        };
        SitePatchRequest: {
            name?: string;
            /** @description Unique within the organization (archived sites included). */
            code?: string;
            address?: string | null;
            latitude?: number | null;
            longitude?: number | null;
            /**
             * Format: uuid
             * @description A site of the organization this one belongs to (a region); null: none. Never a cycle.
             */
            parentSiteId?: string | null;
            /** @description true archives it: kept for what refers to it, left out of lists by default, treated as missing by the HR sync. false restores it. */
            archived?: boolean;
        };
        GroupCreateRequest: {
            name: string;
            /** @description The group's id in the HR or identity system (the sync's externalGroupId, SCIM's externalId); unique in the organization. */
            externalGroupId?: string | null;
        };
        GroupPatchRequest: {
            name?: string;
            /** @description The group's id in the HR or identity system (the sync's externalGroupId, SCIM's externalId); unique in the organization. */
            externalGroupId?: string | null;
            /** @description true archives it: kept for what refers to it, left out of lists by default, treated as missing by the HR sync. false restores it. */
            archived?: boolean;
        };
        RoleCreateRequest: {
            name: string;
        };
        RolePatchRequest: {
            name?: string;
            /** @description true archives it: kept for what refers to it, left out of lists by default, treated as missing by the HR sync. false restores it. */
            archived?: boolean;
        };
        ResponseTypeCreateRequest: {
            name: string;
            /**
             * @description How the answer is given; SELECT and MULTI_SELECT choose among the options.
             * @enum {string}
             */
            inputType: "SELECT" | "MULTI_SELECT" | "TEXT" | "NUMBER" | "DATE" | "BOOLEAN" | "PHOTO";
            uiLabel?: string | null;
            /** @description The choices, in this order (their position). Only for SELECT and MULTI_SELECT; a PATCH with options replaces them all. */
            options?: {
                label: string;
                value: string;
                requiresNote?: boolean;
                requiresPhoto?: boolean;
            }[];
        };
        ResponseTypePatchRequest: {
            name?: string;
            uiLabel?: string | null;
            /** @description The choices, in this order (their position). Only for SELECT and MULTI_SELECT; a PATCH with options replaces them all. */
            options?: {
                label: string;
                value: string;
                requiresNote?: boolean;
                requiresPhoto?: boolean;
            }[];
            /** @description true archives it: kept for what refers to it, left out of lists by default, treated as missing by the HR sync. false restores it. */
            archived?: boolean;
        };
        AssetTypeCreateRequest: {
            name: string;
            /** @description The fields an asset of this type has: a name, a type (text, number, date, boolean) and whether it is required. A PATCH with fields replaces them all. */
            fields?: {
                name: string;
                /** @enum {string} */
                type: "text" | "number" | "date" | "boolean";
                /** @default false */
                required?: boolean;
            }[];
        };
        AssetTypePatchRequest: {
            name?: string;
            /** @description The fields an asset of this type has: a name, a type (text, number, date, boolean) and whether it is required. A PATCH with fields replaces them all. */
            fields?: {
                name: string;
                /** @enum {string} */
                type: "text" | "number" | "date" | "boolean";
                /** @default false */
                required?: boolean;
            }[];
            /** @description true archives it: kept for what refers to it, left out of lists by default, treated as missing by the HR sync. false restores it. */
            archived?: boolean;
        };
        AssetCreateRequest: {
            name: string;
            /** @description Unique within the organization (archived assets included): what its QR code or barcode says. */
            code: string;
            /**
             * Format: uuid
             * @description An asset type of the organization.
             */
            assetTypeId: string;
            /**
             * Format: uuid
             * @description The site of the organization where it is; null: none.
             */
            siteId?: string | null;
            /** @enum {string} */
            status?: "ACTIVE" | "RETIRED";
            /** @description Values of the asset type's fields by field name: text a string, number a number, date a YYYY-MM-DD string, boolean true or false. Required fields must have one; unknown names are refused. */
            fields?: {
                [key: string]: string | number | boolean;
            };
            /** @description Free JSON object of your own (at most 16384 bytes as JSON). */
            metadata?: {
                [key: string]: unknown;
            };
        };
        AssetPatchRequest: {
            name?: string;
            /** @description Unique within the organization (archived assets included): what its QR code or barcode says. */
            code?: string;
            /**
             * Format: uuid
             * @description An asset type of the organization.
             */
            assetTypeId?: string;
            /**
             * Format: uuid
             * @description The site of the organization where it is; null: none.
             */
            siteId?: string | null;
            /** @enum {string} */
            status?: "ACTIVE" | "RETIRED";
            /** @description Values of the asset type's fields by field name: text a string, number a number, date a YYYY-MM-DD string, boolean true or false. Required fields must have one; unknown names are refused. */
            fields?: {
                [key: string]: string | number | boolean;
            };
            /** @description Free JSON object of your own (at most 16384 bytes as JSON). */
            metadata?: {
                [key: string]: unknown;
            };
            /** @description true archives it: kept for what refers to it, left out of lists by default, treated as missing by the HR sync. false restores it. */
            archived?: boolean;
        };
        GroupMemberRequest: {
            memberRole?: string | null;
        };
        ScheduleCreateRequest: {
            name: string;
            /**
             * Format: uuid
             * @description A PUBLISHED template; an occurrence uses the version published when it opens.
             */
            templateId: string;
            recurrence: components["schemas"]["ScheduleRecurrence"];
            /**
             * @description An IANA time zone
             * @example Europe/Berlin
             */
            timeZone: string;
            /**
             * @description Local date of the first occurrence, YYYY-MM-DD (the rule's DTSTART date).
             * @example 2026-03-02
             */
            startDate: string;
            /**
             * @description Local start time HH:MM of every occurrence.
             * @example 09:00
             */
            startTime: string;
            dueWithinMinutes: number;
            assignees?: components["schemas"]["ScheduleAssignees"];
            target?: components["schemas"]["ScheduleTarget"];
            /**
             * @default ONE
             * @enum {string}
             */
            mustComplete?: "ONE" | "ALL";
            /** @default false */
            canLateSubmit?: boolean;
            /** @default null */
            reminderMinutesBefore?: number | null;
            /**
             * @description With reminderMinutesBefore: also e-mail the reminder to each assignee (once per occurrence and assignee).
             * @default false
             */
            remindByEmail?: boolean;
            leaverRule?: components["schemas"]["ScheduleLeaverRule"];
            /** @default false */
            paused?: boolean;
        };
        /**
         * @description Who does it: users, and the employees (with a user) in groups, holding roles, or assigned to sites, resolved when an occurrence opens (the members at that moment).
         * @default {
         *       "userIds": [],
         *       "groupIds": [],
         *       "roleIds": [],
         *       "siteIds": []
         *     }
         */
        ScheduleAssignees: {
            /** @default [] */
            userIds?: string[];
            /** @default [] */
            groupIds?: string[];
            /** @default [] */
            roleIds?: string[];
            /** @default [] */
            siteIds?: string[];
        };
        /**
         * @description none: one occurrence per start; sites: one per listed site; assets: one per ACTIVE, unarchived asset of the asset type, of the site, or of both (the assets there are when occurrences are made).
         * @default {
         *       "kind": "none"
         *     }
         */
        ScheduleTarget: {
            /** @enum {string} */
            kind: "none";
        } | {
            /** @enum {string} */
            kind: "sites";
            /** @default [] */
            siteIds: string[];
        } | {
            /** @enum {string} */
            kind: "assets";
            assetTypeId?: string;
            siteId?: string;
        };
        /**
         * @description When an assignee's employee becomes INACTIVE or TERMINATED, their open and upcoming occurrences go to: the site's site_manager (the employees holding the role site_manager at the occurrence's site), a named user, or nobody (flagged needsAssignee).
         * @default {
         *       "kind": "site_manager"
         *     }
         */
        ScheduleLeaverRule: {
            /** @enum {string} */
            kind: "site_manager";
        } | {
            /** @enum {string} */
            kind: "user";
            userId: string;
        } | {
            /** @enum {string} */
            kind: "unassigned";
        };
        SchedulePatchRequest: {
            name?: string;
            /**
             * Format: uuid
             * @description A PUBLISHED template; an occurrence uses the version published when it opens.
             */
            templateId?: string;
            recurrence?: components["schemas"]["ScheduleRecurrence"];
            /**
             * @description An IANA time zone
             * @example Europe/Berlin
             */
            timeZone?: string;
            /**
             * @description Local date of the first occurrence, YYYY-MM-DD (the rule's DTSTART date).
             * @example 2026-03-02
             */
            startDate?: string;
            /**
             * @description Local start time HH:MM of every occurrence.
             * @example 09:00
             */
            startTime?: string;
            dueWithinMinutes?: number;
            assignees?: components["schemas"]["ScheduleAssignees"];
            target?: components["schemas"]["ScheduleTarget"];
            /** @enum {string} */
            mustComplete?: "ONE" | "ALL";
            canLateSubmit?: boolean;
            reminderMinutesBefore?: number | null;
            /** @description With reminderMinutesBefore: also e-mail the reminder to each assignee (once per occurrence and assignee). */
            remindByEmail?: boolean;
            leaverRule?: components["schemas"]["ScheduleLeaverRule"];
            paused?: boolean;
        };
        UserInviteRequest: {
            /**
             * Format: email
             * @description Unique across all organizations (409 when already used); also the username.
             */
            email: string;
            /** @description The name shown in the app and the welcome mail. */
            name?: string | null;
            /** @description Default false. */
            isAdmin?: boolean;
        };
        UserPatchRequest: {
            name?: string | null;
            isAdmin?: boolean;
            /** @description true: the user can no longer sign in and their tokens are refused at once. */
            disabled?: boolean;
        };
        ApiKeyCreateRequest: {
            /** @description What it is for, to tell it apart in lists and the audit log. */
            name: string;
            /** @description Among templates:read, templates:write, inspections:read, inspections:write, actions:read, actions:write, media:read, media:write, webhooks:manage, audit:read, feeds:read, employees:read, directory:read, directory:write, employees:erase, schedules:read, schedules:write, sync-sessions:manage, users:manage, credentials:manage. An API key may only give scopes it holds itself (403 naming the first it lacks). */
            scopes: ("templates:read" | "templates:write" | "inspections:read" | "inspections:write" | "actions:read" | "actions:write" | "media:read" | "media:write" | "webhooks:manage" | "audit:read" | "feeds:read" | "employees:read" | "directory:read" | "directory:write" | "employees:erase" | "schedules:read" | "schedules:write" | "sync-sessions:manage" | "users:manage" | "credentials:manage")[];
            /**
             * Format: date-time
             * @description From then on the key is refused (401, API key expired). null or absent: it never expires.
             */
            expiresAt?: string | null;
        };
        OAuthClientCreateRequest: {
            /** @description What it is for, to tell it apart in lists and the audit log. */
            name: string;
            /** @description employees:sync (the HR sync and its sessions), scim (SCIM 2.0 provisioning). */
            scopes: ("employees:sync" | "scim")[];
        };
        SyncSessionRequest: {
            scope?: components["schemas"]["SyncSessionScope"];
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;

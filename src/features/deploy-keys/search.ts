import * as z from 'zod/mini';
import { pageParams, withDefault, searchSchema, type SearchOf } from '../../lib/search-params.ts';

export const projectDeployKeysSearchSchema = searchSchema(() => z.object({ ...pageParams() }));
export type ProjectDeployKeysSearch = SearchOf<typeof projectDeployKeysSearchSchema>;
export const PROJECT_DEPLOY_KEYS_SEARCH_DEFAULTS: Partial<ProjectDeployKeysSearch> = { page: 1, per_page: 20 };

/** The instance list: `public` narrows to the instance-wide keys an administrator added. */
export const instanceDeployKeysSearchSchema = searchSchema(() => z.object({ public: withDefault(z.boolean(), false), ...pageParams() }));
export type InstanceDeployKeysSearch = SearchOf<typeof instanceDeployKeysSearchSchema>;
export const INSTANCE_DEPLOY_KEYS_SEARCH_DEFAULTS: Partial<InstanceDeployKeysSearch> = { public: false, page: 1, per_page: 20 };

import * as z from 'zod/mini';
import { withDefault, searchSchema, type SearchOf } from '../../lib/search-params.ts';

const page = withDefault(z.number().check(z.int(), z.minimum(1)), 1);
const perPage = withDefault(z.union([z.literal(20), z.literal(50), z.literal(100)]), 20);

export const projectDeployKeysSearchSchema = searchSchema(() => z.object({ page, per_page: perPage }));
export type ProjectDeployKeysSearch = SearchOf<typeof projectDeployKeysSearchSchema>;
export const PROJECT_DEPLOY_KEYS_SEARCH_DEFAULTS: Partial<ProjectDeployKeysSearch> = { page: 1, per_page: 20 };

/** The instance list: `public` narrows to the instance-wide keys an administrator added. */
export const instanceDeployKeysSearchSchema = searchSchema(() => z.object({ public: withDefault(z.boolean(), false), page, per_page: perPage }));
export type InstanceDeployKeysSearch = SearchOf<typeof instanceDeployKeysSearchSchema>;
export const INSTANCE_DEPLOY_KEYS_SEARCH_DEFAULTS: Partial<InstanceDeployKeysSearch> = { public: false, page: 1, per_page: 20 };

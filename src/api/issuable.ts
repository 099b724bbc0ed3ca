import * as z from 'zod/mini';
import { loose, referencesSchema } from './schema.ts';
import { userSummariesSchema, userSummarySchema } from './users.ts';
import { labelBasicSchema } from './labels.ts';
import { milestoneSchema } from './milestones.ts';

/** What issues and merge requests both carry (the platform's Issuable): each schema spreads these. */
export const issuableFields = {
  id: z.number(),
  iid: z.number(),
  project_id: z.number(),
  title: z.string(),
  description: z.nullish(z.string()),
  state: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  closed_at: z.nullish(z.string()),
  closed_by: z.nullish(userSummarySchema),
  author: z.nullish(userSummarySchema),
  assignees: userSummariesSchema,
  /** Names, or label objects with `with_labels_details`. */
  labels: z.array(z.union([z.string(), labelBasicSchema])),
  milestone: z.nullish(milestoneSchema),
  user_notes_count: z.nullish(z.number()),
  upvotes: z.nullish(z.number()),
  downvotes: z.nullish(z.number()),
  web_url: z.nullish(z.string()),
  references: referencesSchema,
  /** The description's task list: ticked of all. */
  task_completion_status: z.nullish(loose({ count: z.number(), completed_count: z.number() })),
};

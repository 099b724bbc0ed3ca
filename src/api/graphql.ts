import * as z from 'zod/mini';
import { ApiError } from './errors.ts';
import { parseWith, sendTo, type Connection } from './http.ts';
import { loose } from './schema.ts';
import { graphqlBody, graphqlUrl } from './graphql-reads.ts';

const errorsSchema = z.array(loose({ message: z.string() }));

/** The `errors` of a GraphQL answer as one readable line, or undefined when there are none. */
export function graphqlErrorMessage(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const result = z.safeParse(errorsSchema, (body as { errors?: unknown }).errors);
  if (!result.success || result.data.length === 0) return undefined;
  return [...new Set(result.data.map((error) => error.message))].join('; ');
}

/**
 * POST a query with the REST API's auth (`PRIVATE-TOKEN`); resolves with `data` parsed by
 * `dataSchema`, rejects with an ApiError carrying the `errors` messages (GraphQL answers them
 * with 200, or with 4xx for a bad token or query).
 */
export async function graphqlRequest<S extends z.ZodMiniType>(
  connection: Connection,
  query: string,
  variables: Record<string, unknown>,
  dataSchema: S,
  signal?: AbortSignal,
): Promise<z.infer<S>> {
  let response;
  try {
    response = await sendTo(connection, graphqlUrl(connection), { method: 'POST', body: graphqlBody(query, variables), signal });
  } catch (error) {
    const message = error instanceof ApiError ? graphqlErrorMessage(error.body) : undefined;
    if (error instanceof ApiError && message) throw new ApiError(error.status, message, error.kind, undefined, error.retryAfter, error.body);
    throw error;
  }
  const message = graphqlErrorMessage(response.data);
  const data = response.data && typeof response.data === 'object' ? (response.data as { data?: unknown }).data : undefined;
  // partial answers (data beside errors) are errors too: the console asks only for what it shows
  if (message) throw new ApiError(response.status, message, 'http', undefined, undefined, response.data);
  return parseWith(dataSchema, data, 'POST /api/graphql');
}

/** One variable the CI file defines for a ref, as the run form prefills it (the platform's CiConfigVariable). */
export const ciConfigVariableSchema = loose({
  key: z.string(),
  value: z.nullish(z.string()),
  valueOptions: z.pipe(z.nullish(z.array(z.string())), z.transform((options) => options ?? [])),
  description: z.nullish(z.string()),
});
export type CiConfigVariable = z.infer<typeof ciConfigVariableSchema>;

const CI_CONFIG_VARIABLES_QUERY = `query ciConfigVariables($fullPath: ID!, $ref: String!) {
  project(fullPath: $fullPath) {
    ciConfigVariables(ref: $ref) { key value valueOptions description }
  }
}`;

const ciConfigVariablesDataSchema = loose({
  project: z.nullable(loose({ ciConfigVariables: z.nullish(z.array(ciConfigVariableSchema)) })),
});

/**
 * The variables of the CI file at `ref`, with descriptions and value options; null while the
 * platform is still reading the file (it answers null first and the value on a later ask).
 */
export async function fetchCiConfigVariables(connection: Connection, fullPath: string, ref: string, signal?: AbortSignal): Promise<CiConfigVariable[] | null> {
  const data = await graphqlRequest(connection, CI_CONFIG_VARIABLES_QUERY, { fullPath, ref }, ciConfigVariablesDataSchema, signal);
  if (!data.project) throw new ApiError(404, 'Project not found, or you may not read it.', 'http');
  return data.project.ciConfigVariables ?? null;
}
